// One subcommand of `gpuscope`: its name, its line in the main help, how it runs and its
// --help. The list of them is commands.h's; `gpuscope help` is handed the list, so that it
// can be one of them.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace gpuscope::cli {

struct Command {
  std::string_view name;
  std::string_view summary;  // one line for `gpuscope --help`
  // Runs the command on the words after its name; returns gpuscope's exit code.
  int (*run)(std::span<const std::string> args);
  // The command's --help text.
  std::string (*usage)();
};

// nullptr when `name` is none of `commands`.
const Command* FindCommand(std::span<const Command> commands, std::string_view name);

}  // namespace gpuscope::cli
