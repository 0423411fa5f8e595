// What the `gpuscope profile` GPU tests share: running the profilers on an example, finding
// Nsight Compute, and reading the checksum lines that metrics_kernels and many_kernels print
// (equal checksums: the profiler's replays left the program's results as they were).
#pragma once

#include <string>
#include <vector>

#include "command_runner.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {

// Nsight Compute: $GPUSCOPE_NCU, else `ncu` on PATH, else /usr/local/cuda/bin/ncu; "" when
// none of them is an executable file.
std::string FindNcu();

// gpuscope profile -o <dir>/p_%p.sqlite -f <options> -- <program...>
CommandResult RunGpuscopeProfile(const ScratchDir& dir, const std::vector<std::string>& options,
                                 const std::vector<std::string>& program, int timeout_seconds);

// The "checksum <name> <hex>" lines of a program's output, in order.
std::vector<std::string> ChecksumLines(const std::string& output);

// Writes `text` to <dir>/<name> (kept with the scratch directory when the test fails).
void SaveText(const ScratchDir& dir, const std::string& name, const std::string& text);

}  // namespace gpuscope::gpu_test
