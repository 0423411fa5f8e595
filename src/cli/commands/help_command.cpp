#include "cli/commands/help_command.h"

#include <algorithm>
#include <iostream>

#include "cli/launch/install_paths.h"
#include "cli/options/option_parser.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"
#include "contract/environment_variables.h"

#ifndef GPUSCOPE_VERSION
#error "GPUSCOPE_VERSION must be defined by the build (src/cli/CMakeLists.txt)"
#endif

namespace gpuscope::cli {

std::string MainUsage(std::span<const Command> commands) {
  std::string text =
      "Usage: gpuscope <command> [options] [args]\n"
      "       gpuscope [run options] <program> [args]   (short for gpuscope run)\n"
      "\n"
      "Commands:\n";
  std::size_t width = 0;
  for (const Command& command : commands) width = std::max(width, command.name.size());
  for (const Command& command : commands) {
    text += "  " + std::string(command.name) + std::string(width - command.name.size() + 2, ' ') +
            std::string(command.summary) + "\n";
  }
  text +=
      "\n"
      "gpuscope <command> --help shows the options of a command; gpuscope --version its\n"
      "version.\n"
      "\n"
      "Exit codes:\n"
      "  the program's own  gpuscope run passes the traced program's exit code through;\n"
      "                     when signal N killed the program, gpuscope is killed by\n"
      "                     signal N too (a shell shows 128+N)\n"
      "  127                the program was not found or is not executable\n"
      "  3                  gpuscope diff --fail-on regression: a kernel or NVTX range got\n"
      "                     slower beyond run-to-run noise\n"
      "  2                  usage error: unknown option, bad value, missing argument\n"
      "  1                  gpuscope itself failed (report not writable or not readable)\n";
  return text;
}

// The version, then where this binary looks for what `run` and `profile` hand the program:
// a copied or moved install shows here whether it still finds its injection library.
std::string VersionText() {
  const InstallLocations where = FindInstallLocations();
  std::string text = std::string("gpuscope ") + GPUSCOPE_VERSION + "\n";
  text += "injection library: " + where.injection_library +
          (where.injection_from_environment
               ? std::string(" (from ") + contract::kInjectionLibraryVariable + ")"
               : std::string(" (<bin>/../lib, next to this gpuscope)")) +
          "\n";
  text += where.injection_found.ok()
              ? "  found: " + where.injection_found.value() + "\n"
              : "  not usable: " + where.injection_found.status().message() + "\n";
  text += "CUPTI directory: " + where.cupti_dir +
          (where.cupti_from_environment ? std::string(" (from ") + contract::kCuptiDirVariable + ")"
                                        : std::string(" (the toolkit gpuscope was built with)")) +
          "\n";
  text += std::string("  ") + kCuptiLibraryName +
          (where.cupti_present ? " found\n" : " missing: `run` and `profile` need it\n");
  return text;
}

std::string HelpUsage() {
  return "Usage: gpuscope help [command]\n"
         "\n"
         "Shows the help of gpuscope, or of one command.\n";
}

int HelpCommand(std::span<const Command> commands, std::span<const std::string> args) {
  if (args.empty()) {
    std::cout << MainUsage(commands);
    return kExitOk;
  }
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << HelpUsage();
    return kExitOk;
  }
  const Command* command = FindCommand(commands, args[0]);
  if (command == nullptr || args.size() > 1) {
    CommandError(command == nullptr ? "unknown command '" + args[0] + "'"
                                    : std::string("too many arguments"));
    std::cerr << ShortUsage(MainUsage(commands), "");
    return kExitUsage;
  }
  std::cout << command->usage();
  return kExitOk;
}

}  // namespace gpuscope::cli
