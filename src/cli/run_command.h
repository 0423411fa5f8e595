// `gpuscope run [options] -- <program> [args]`: trace a program and print what it did.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// Returns gpuscope's exit code: the program's own (128+N when killed by signal N), 127 when
// it could not be started, 2 for a usage error, 1 when gpuscope itself failed before the
// program started.
int RunCommand(std::span<const std::string> args);

}  // namespace gpuscope::cli
