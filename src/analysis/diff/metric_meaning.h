// What a change of a metric means, by its CUPTI name: whether lower or higher is better, and
// how much it moves between runs of the same unchanged kernel (its noise class). Names are
// classified by the parts CUPTI composes them from (counter, roll-up, sub-metric), so metrics
// never listed here are still classified.
#pragma once

#include <string_view>

namespace gpuscope::analysis::diff {

enum class Direction {
  kLowerIsBetter,   // time, cycles, instructions, bytes, sectors, stalls, conflicts, spills
  kHigherIsBetter,  // utilisation (% of peak), hit rates, IPC, occupancy, efficiency
  kNeutral,         // clocks, peaks, rates whose worth depends on the work done
};

std::string_view DirectionName(Direction direction);  // "lower is better", ...

Direction DirectionOf(std::string_view metric);

enum class NoiseClass {
  // Counts the same input always gives (instructions executed, launches): any change is
  // real.
  kExact,
  // Measured quantities (time, cycles, bytes through caches, throughputs): they move
  // between runs (clocks, cache state left by earlier kernels).
  kMeasured,
};

NoiseClass NoiseClassOf(std::string_view metric);

// The relative change below which a measured quantity counts as noise when no report has
// several launches of the kernel to estimate it from. 2%: the spread of repeated launches
// of the same kernel in our H200 recordings stayed within 1% (k_saxpy x2: 0.2%, k_fma_fp32
// x2: 0.4% in tests/data/reports/legacy/h200_metrics_full_2026-11-21.sqlite); twice that leaves
// margin for runs on different days.
inline constexpr double kDefaultMeasuredNoise = 0.02;

// The smallest relative threshold for a measured quantity even when launches agree more
// closely than that (two launches can agree by chance).
inline constexpr double kMeasuredNoiseFloor = 0.005;

// Percentages (of peak, hit rates) closer than this many points are never a finding: a
// throughput going from 0.2% to 0.3% is a 50% change of nothing.
inline constexpr double kPercentPointFloor = 0.5;

bool IsPercent(std::string_view metric);

}  // namespace gpuscope::analysis::diff
