#include "cli/commands/command.h"

namespace gpuscope::cli {

const Command* FindCommand(std::span<const Command> commands, std::string_view name) {
  for (const Command& command : commands) {
    if (command.name == name) return &command;
  }
  return nullptr;
}

}  // namespace gpuscope::cli
