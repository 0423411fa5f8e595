// `--list-sets` and `--list-sections`, laid out like ncu's:
//   ---------- ------------------------------------------------------------ ------- ------- ------
//   Identifier Sections                                                     Enabled Metrics Passes
//   ---------- ------------------------------------------------------------ ------- ------- ------
//   basic      SpeedOfLight, LaunchStats, Occupancy, WorkloadDistribution   yes          65     12
// "Metrics" counts the CUPTI names collected (ncu's "Estimated Metrics"); "Passes" needs the
// Profiler Host API, which this CUPTI-free code cannot call: the caller passes a counter,
// and without one (or when it returns nothing) the column says "n/a". A section with no
// counters (LaunchStats) needs 0 passes; the counter is not asked about it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope::render {

// Replay passes the chip needs for these metric names; nullopt when it cannot tell.
using PassCounter = std::function<std::optional<int>(const std::vector<std::string>& names)>;

// "Enabled" is yes for the default set (basic) and the sections in it.
std::string FormatSetList(const PassCounter& passes = nullptr);
std::string FormatSectionList(const PassCounter& passes = nullptr);

}  // namespace gpuscope::render
