// `gpuscope run [options] -- <program> [args]`: trace a program and print what it did.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// Returns gpuscope's exit code: the program's own, 127 when it could not be started, 2 for
// a usage error, 1 when gpuscope itself failed before the program started. When signal N
// killed the program, gpuscope ends by signal N too once it has printed everything (a shell
// shows 128+N), and returns 128+N only if it could not.
int RunCommand(std::span<const std::string> args);

}  // namespace gpuscope::cli
