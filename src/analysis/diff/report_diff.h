// `gpuscope diff`: the kernels of two reports matched by name and launch configuration, and
// for each, how its duration and metrics changed, which way is better, and whether the
// change exceeds run-to-run noise.
//
// Noise. With several launches of a kernel in a report, their relative range
// ((max - min) / mean) shows how much the value moves between runs; a change counts when it
// exceeds twice the larger range of the two reports (the range of 2-10 samples spans about
// 1-3 standard deviations), and never less than kMeasuredNoiseFloor for measured
// quantities. With one launch per report: kDefaultMeasuredNoise for measured quantities,
// and any change for exact counts (metric_meaning.h). Percentages also need to move by
// kPercentPointFloor points.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/diff/kernel_launches.h"
#include "analysis/diff/metric_meaning.h"

namespace gpuscope::analysis::diff {

struct ValueSummary {
  std::size_t count = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
  // (max - min) / |mean| over the launches; unset with fewer than two, or a zero mean.
  std::optional<double> relative_range;
};

ValueSummary Summarize(const std::vector<double>& values);

enum class Change { kSame, kBetter, kWorse, kChanged };
std::string_view ChangeName(Change change);  // "same", "better", "worse", "changed"

struct MetricDelta {
  std::string name;  // CUPTI's, or "Duration (traced)" for the kernels table's durations
  std::string unit;
  ValueSummary before;
  ValueSummary after;
  double delta = 0;                // after.mean - before.mean
  std::optional<double> relative;  // delta / |before.mean|; unset when before is 0
  Direction direction = Direction::kNeutral;
  Change change = Change::kSame;
  bool beyond_noise = false;
  double noise = 0;          // the relative threshold used
  std::string noise_source;  // "range of 3 launches", "default 2%", "exact count"
};

struct KernelDiff {
  KernelKey key;
  std::string function_name;
  std::size_t launches_before = 0;  // traced launches (profiled ones when untraced)
  std::size_t launches_after = 0;
  std::optional<MetricDelta> duration;  // from the kernels table, both reports
  // Total traced time of the kernel: before - after (positive: time saved).
  std::optional<double> time_saved_ns;
  std::vector<MetricDelta> metrics;  // both reports measured it; biggest change first
};

struct KernelOnlyIn {
  KernelKey key;
  std::string function_name;
  std::size_t launches = 0;
  double total_time_ns = 0;
};

struct ReportDiff {
  std::string before_path;
  std::string after_path;
  std::vector<KernelDiff> kernels;  // biggest change first
  std::vector<KernelOnlyIn> only_before;
  std::vector<KernelOnlyIn> only_after;
};

ReportDiff DiffReports(const ReportKernels& before, const ReportKernels& after);

// A relative change as text: "+12.3%", "-100.0%", "new" (from zero).
std::string FormatRelative(const MetricDelta& delta);

}  // namespace gpuscope::analysis::diff
