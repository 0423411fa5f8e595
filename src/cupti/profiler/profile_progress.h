// The ncu-like line `gpuscope profile` prints per selected launch (unless --quiet):
//   Profiling "saxpy" - 0: 0%....50%....100% - 12 passes
//   Profiling "saxpy" - 1: not measured: <why>
//   Profiling "saxpy" - 0: pass 1 of 3            (application replay, every run but the last)
#pragma once

#include <cstdint>

#include "inject/profiled_kernel.h"

namespace gpuscope::cupti {

// The launch's outcome: measured with its passes, or not measured and why.
void PrintProgressLine(const inject::OwnedProfiledKernel& kernel);

// Application replay: this run added pass `pass` (from 1) of `passes` to the launch's image.
void PrintReplayPassLine(const inject::OwnedProfiledKernel& kernel, std::uint32_t pass,
                         std::uint32_t passes);

}  // namespace gpuscope::cupti
