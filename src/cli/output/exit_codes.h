// The exit codes of the gpuscope command, documented in `gpuscope --help`. Besides these,
// `gpuscope run` exits with the traced program's own code (or dies by the signal that
// killed it, see EndLikeTheProgram), so that scripts and CI jobs see the program's result,
// not the profiler's.
#pragma once

namespace gpuscope::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitGpuscopeFailure = 1;    // gpuscope's own failure (bad report, I/O)
inline constexpr int kExitUsage = 2;              // unknown option, bad value, missing operand
inline constexpr int kExitRegression = 3;  // `diff --fail-on regression` found a slowdown
inline constexpr int kExitProgramNotFound = 127;  // as shells do: not found or not executable
inline constexpr int kExitSignalBase = 128;       // + signal number, as shells do

}  // namespace gpuscope::cli
