// Wall time of the kernel profiler's steps, for the debug log (where the time of a profile
// goes).
#pragma once

#include <chrono>
#include <string>

namespace gpuscope::cupti {

using SteadyClock = std::chrono::steady_clock;

// "12.3 ms" since `start`.
std::string Elapsed(SteadyClock::time_point start);

}  // namespace gpuscope::cupti
