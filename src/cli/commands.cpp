#include "cli/commands.h"

#include "cli/help_command.h"
#include "cli/run_command.h"
#include "cli/run_options.h"
#include "cli/stats_command.h"
#include "cli/stats_options.h"

namespace gpuscope::cli {

std::span<const Command> Commands() {
  static const Command kCommands[] = {
      {"run", "trace a CUDA program and print nvprof's summary", RunCommand, RunUsage},
      {"stats", "print summaries and nsys-style tables from reports", StatsCommand, StatsUsage},
      {"help", "show the help of gpuscope or of one command", HelpCommand, HelpUsage},
  };
  return kCommands;
}

const Command* FindCommand(std::string_view name) {
  for (const Command& command : Commands()) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

}  // namespace gpuscope::cli
