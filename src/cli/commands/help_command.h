// `gpuscope help [command]`, `gpuscope --help` and `gpuscope --version`.
#pragma once

#include <span>
#include <string>

#include "cli/commands/command.h"

namespace gpuscope::cli {

// The top-level help: commands, the `gpuscope <program>` shorthand and the exit codes.
std::string MainUsage(std::span<const Command> commands);

// "gpuscope 0.1.0\n".
std::string VersionText();

// `gpuscope help` prints MainUsage(commands); `gpuscope help <command>` that command's usage.
int HelpCommand(std::span<const Command> commands, std::span<const std::string> args);
std::string HelpUsage();

}  // namespace gpuscope::cli
