// How closely gpuscope's metric values must match Nsight Compute's on the same launches
// (issue 3, "Right numbers"): counts within 1%, percentages within 3 points, durations within
// 5%; every other kind (ratios, rates, per-cycle values, peaks) within 5% by default.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuscope::ncu_csv {

enum class MetricKind {
  kCount,     // events counted: instructions, sectors, bytes, FLOPs, conflicts, branches
  kPercent,   // .pct and .pct_of_peak_*: compared in points
  kDuration,  // gpu__time_duration and cycle counts: time, which varies run to run
  kOther,     // ratios, .per_second, .per_cycle_*, .peak_sustained
};

// By the metric's name: its rollup (.sum .avg .min .max) and submetric suffixes.
MetricKind ClassifyMetric(std::string_view metric);
std::string_view MetricKindName(MetricKind kind);  // "count", "percent", ...

// A difference is accepted when |candidate - reference| <= max(relative * |reference|,
// absolute).
struct Tolerance {
  double relative = 0;
  double absolute = 0;
};

struct Tolerances {
  Tolerance count{0.01, 0};
  Tolerance percent{0, 3.0};
  Tolerance duration{0.05, 0};
  Tolerance other{0.05, 0};
  // Metric-name prefix -> tolerance, for metrics whose nature the name's suffix does not say
  // (the longest matching prefix wins over the kind's tolerance).
  std::vector<std::pair<std::string, Tolerance>> by_prefix;

  Tolerance For(std::string_view metric) const;
};

// "1%", "3 points", "5% or 0.01": the rule in words, for comparison lines.
std::string DescribeTolerance(const Tolerance& tolerance, MetricKind kind);

}  // namespace gpuscope::ncu_csv
