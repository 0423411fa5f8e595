// Overhead kinds of gpuscope's own, stored in overheads.overhead_kind next to CUPTI's
// CUPTI_ACTIVITY_OVERHEAD_* values (0, 1 and multiples of 1<<16 below 1<<24), outside them.
#pragma once

#include <cstdint>

namespace gpuscope::model {

// gpuscope's replay of a profiled launch: the time it took out of the launch call's API
// record (inject/profiler_time.h), profiler time rather than the program's.
inline constexpr std::uint32_t kGpuscopeReplayOverheadKind = 0x40000000;

}  // namespace gpuscope::model
