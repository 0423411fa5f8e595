// The entry point of the gpuscope command: picks the subcommand and runs it.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// `args` are argv[1..]. The first word names a subcommand (commands.h), or is --help,
// -h or --version; anything else is the shorthand `gpuscope [run options] <program>`,
// so nvprof's habit `gpuscope ./app` works. A program named like a subcommand, or a near
// miss of one (`stat`), runs with `gpuscope run -- <name>`; a near miss or a report file as
// the first word is a usage error that says what was probably meant (command_suggestion.h).
int Dispatch(std::span<const std::string> args);

}  // namespace gpuscope::cli
