// The subcommands of `gpuscope`. Each lives in its own file and is listed once in
// commands.cpp; adding one (profile, export, diff, view, occupancy, rules) is a new file and
// one line there. The dispatcher reads this table, and hands it to `gpuscope help`.
#pragma once

#include <span>

#include "cli/commands/command.h"

namespace gpuscope::cli {

std::span<const Command> Commands();

}  // namespace gpuscope::cli
