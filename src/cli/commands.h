// The subcommands of `gpuscope`. Each lives in its own file and is listed once in
// commands.cpp; adding one (profile, export, diff, view, occupancy, rules) is a new file and
// one line there. The dispatcher and `gpuscope help` read this table.
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

std::span<const Command> Commands();

// nullptr when `name` is not a subcommand.
const Command* FindCommand(std::string_view name);

}  // namespace gpuscope::cli
