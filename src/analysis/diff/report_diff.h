// `gpuscope diff`: the kernels of two reports matched by name (and, when asked, launch
// configuration), and for each, how its configuration, duration and metrics changed, which
// way is better, and whether the change exceeds run-to-run noise; the same for the GPU time
// projected per NVTX range.
//
// Noise. With several launches of a kernel in a report, their relative range
// ((max - min) / mean) shows how much the value moves between runs; a change counts when it
// exceeds twice the larger range of the two reports (the range of 2-10 samples spans about
// 1-3 standard deviations), and never less than kMeasuredNoiseFloor for measured
// quantities. With one launch per report: kDefaultMeasuredNoise for measured quantities,
// and any change for exact counts (metric_meaning.h). Percentages also need to move by
// kPercentPointFloor points.
//
// Regression: a kernel's time (traced duration, else the profiled gpu__time_duration.sum) or
// a range's projected GPU time that got worse beyond noise. `gpuscope diff --fail-on
// regression` exits non-zero when there is one. A kernel or range in one report only is not a
// regression (it is listed apart).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/diff/kernel_launches.h"
#include "analysis/diff/metric_meaning.h"
#include "analysis/diff/source_line_diff.h"

namespace gpuscope::analysis::diff {

// The name of the traced-duration row and of the NVTX range row, as `MetricDelta::name`.
inline constexpr std::string_view kTracedDurationName = "Duration (traced)";
inline constexpr std::string_view kProjectedTimeName = "NVTX projected GPU time";
// The kernel duration `gpuscope profile` measures (stands in when a launch was not traced).
inline constexpr std::string_view kProfiledDurationMetric = "gpu__time_duration.sum";

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
  std::vector<LaunchConfig> configs_before;  // every shape launched, sorted
  std::vector<LaunchConfig> configs_after;
  std::size_t launches_before = 0;  // traced launches (profiled ones when untraced)
  std::size_t launches_after = 0;
  std::optional<MetricDelta> duration;  // from the kernels table, both reports
  // Total traced time of the kernel: before - after (positive: time saved).
  std::optional<double> time_saved_ns;
  std::vector<MetricDelta> metrics;  // both reports measured it; biggest change first
  bool regression = false;           // Time() got worse beyond noise
  // Both reports have its source page: the lines that changed (source_line_diff.h).
  std::optional<SourceLineDiff> source_lines;

  bool ConfigChanged() const { return configs_before != configs_after; }
  // The kernel's time: the traced duration, else the profiled duration; nullptr if neither.
  const MetricDelta* Time() const;
};

struct KernelOnlyIn {
  KernelKey key;
  std::string function_name;
  std::vector<LaunchConfig> configs;
  std::size_t launches = 0;
  double total_time_ns = 0;
};

// An NVTX range (by label) with GPU work in both reports: its projected GPU time per
// instance.
struct RangeDiff {
  std::string name;
  MetricDelta projected;     // "NVTX projected GPU time", ns
  double time_saved_ns = 0;  // total before - total after
  bool regression = false;
};

struct RangeOnlyIn {
  std::string name;
  std::size_t instances = 0;
  double total_time_ns = 0;
};

struct ReportDiff {
  std::string before_path;
  std::string after_path;
  MatchBy match = MatchBy::kName;
  std::vector<KernelDiff> kernels;  // biggest change first
  std::vector<KernelOnlyIn> only_before;
  std::vector<KernelOnlyIn> only_after;
  std::vector<RangeDiff> ranges;  // biggest time change first
  std::vector<RangeOnlyIn> ranges_only_before;
  std::vector<RangeOnlyIn> ranges_only_after;
  std::size_t regressions = 0;  // kernels and ranges with `regression`
  // "<path>: <why>" for a report whose source pages could not be read (no line diff then).
  std::vector<std::string> source_notes;
};

ReportDiff DiffReports(const ReportKernels& before, const ReportKernels& after);

// A relative change as text: "+12.3%", "-100.0%", "new" (from zero).
std::string FormatRelative(const MetricDelta& delta);

}  // namespace gpuscope::analysis::diff
