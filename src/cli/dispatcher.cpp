#include "cli/dispatcher.h"

#include <iostream>

#include "cli/command_suggestion.h"
#include "cli/commands/commands.h"
#include "cli/commands/help_command.h"
#include "cli/options/option_parser.h"
#include "cli/output/command_error.h"
#include "cli/output/exit_codes.h"

namespace gpuscope::cli {

int Dispatch(std::span<const std::string> args) {
  if (args.empty()) {
    // `gpuscope` alone asks what it can do: the help, as `gpuscope --help` prints it.
    std::cout << MainUsage(Commands());
    return kExitOk;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h") {
    std::cout << MainUsage(Commands());
    return kExitOk;
  }
  if (first == "--version") {
    std::cout << VersionText();
    return kExitOk;
  }
  if (const Command* command = FindCommand(Commands(), first)) return command->run(args.subspan(1));
  if (std::optional<std::string> error = NotAProgramError(first)) {
    CommandError(*error);
    return kExitUsage;
  }
  return FindCommand(Commands(), "run")->run(args);
}

}  // namespace gpuscope::cli
