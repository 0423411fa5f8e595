// Comparing two profilers' values for the same kernel launches: Nsight Compute (the
// reference) and gpuscope (the candidate). Launches are matched by kernel function name and
// launch order within that name (the n-th profiled k_saxpy of one with the n-th of the
// other); each requested metric of each matched launch becomes one comparison line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "metric_tolerance.h"
#include "profiled_launch.h"

namespace gpuscope::ncu_csv {

enum class Verdict {
  kPass,
  kFail,     // both numbers, too far apart
  kMissing,  // the reference has a number, the candidate has none (absent or not numeric)
  kSkipped,  // the reference has no number ("n/a"): nothing to compare with
};
std::string_view VerdictName(Verdict verdict);  // "PASS", "FAIL", "MISSING", "SKIP"

struct MetricComparison {
  std::string kernel;  // function name
  int ordinal = 0;     // n-th profiled launch of that kernel, from 0
  std::string metric;
  MetricKind kind = MetricKind::kOther;
  std::optional<double> reference;
  std::optional<double> candidate;
  double allowed = 0;  // the largest accepted |candidate - reference|
  std::string rule;    // DescribeTolerance
  Verdict verdict = Verdict::kPass;
};

struct Comparison {
  std::vector<MetricComparison> metrics;
  // Launches only one side has, and matched launches whose grid or block differ: each one
  // line, each a failure.
  std::vector<std::string> launch_problems;
  int matched_launches = 0;

  int Count(Verdict verdict) const;
  // No failure, nothing missing, every launch matched, and at least one value compared.
  bool ok() const;
};

// `metrics`: the names to compare; empty compares every metric the reference launch has.
Comparison CompareLaunches(const std::vector<ProfiledLaunch>& reference,
                           const std::vector<ProfiledLaunch>& candidate,
                           const std::vector<std::string>& metrics, const Tolerances& tolerances);

// One line per comparison ("PASS k_saxpy#0 dram__bytes.sum count ncu=... gpuscope=...
// ratio=1.0000 diff=... allowed=... (1%)"), then the launch problems, then a summary line
// starting "summary:".
std::string FormatComparison(const Comparison& comparison, std::string_view reference_label = "ncu",
                             std::string_view candidate_label = "gpuscope");

}  // namespace gpuscope::ncu_csv
