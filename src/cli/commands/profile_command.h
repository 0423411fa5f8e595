// `gpuscope profile [options] -- <program> [args]`: Nsight Compute's workflow. Checks the
// request (sections, metric names on the chip, passes), runs the program with the injection
// measuring the selected launches, evaluates their counter data and prints the sections.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// Exit code: the program's own (like `gpuscope run`), 2 for a bad request, 1 when gpuscope
// failed before the program started.
int ProfileCommand(std::span<const std::string> args);

}  // namespace gpuscope::cli
