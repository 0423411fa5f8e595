#include "analysis/diff/report_diff.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

namespace gpuscope::analysis::diff {
namespace {

// Twice the larger range: see report_diff.h.
constexpr double kRangeMultiple = 2.0;

// `samples` names what the values are of ("launches", "instances"), for the noise source.
MetricDelta Compare(std::string name, std::string unit, const std::vector<double>& before,
                    const std::vector<double>& after, Direction direction, NoiseClass noise,
                    std::string_view samples = "launches") {
  MetricDelta d;
  d.name = std::move(name);
  d.unit = std::move(unit);
  d.before = Summarize(before);
  d.after = Summarize(after);
  d.direction = direction;
  d.delta = d.after.mean - d.before.mean;
  if (d.before.mean != 0) d.relative = d.delta / std::fabs(d.before.mean);

  std::optional<double> range;
  for (const ValueSummary* side : {&d.before, &d.after}) {
    if (side->relative_range) range = std::max(range.value_or(0), *side->relative_range);
  }
  if (noise == NoiseClass::kExact) {
    d.noise = 0;
    d.noise_source = "exact count";
  } else if (range) {
    d.noise = std::max(kRangeMultiple * *range, kMeasuredNoiseFloor);
    char text[64];
    std::snprintf(text, sizeof text, "range of %zu+%zu %.*s", d.before.count, d.after.count,
                  static_cast<int>(samples.size()), samples.data());
    d.noise_source = text;
  } else {
    d.noise = kDefaultMeasuredNoise;
    d.noise_source = "default 2%";
  }
  if (d.delta == 0) {
    d.beyond_noise = false;
  } else if (!d.relative) {
    d.beyond_noise = true;  // from exactly zero: a new kind of work appeared
  } else {
    d.beyond_noise = std::fabs(*d.relative) > d.noise;
  }
  if (d.beyond_noise && IsPercent(d.name) && std::fabs(d.delta) < kPercentPointFloor) {
    d.beyond_noise = false;
  }
  if (d.delta == 0) {
    d.change = Change::kSame;
  } else if (direction == Direction::kNeutral) {
    d.change = Change::kChanged;
  } else {
    bool lower = d.delta < 0;
    d.change =
        (lower == (direction == Direction::kLowerIsBetter)) ? Change::kBetter : Change::kWorse;
  }
  return d;
}

// Sorting weight of a metric row: changes beyond noise first, then by size (a change from
// zero counts as the largest).
bool BiggerChange(const MetricDelta& a, const MetricDelta& b) {
  if (a.beyond_noise != b.beyond_noise) return a.beyond_noise;
  double ra = a.relative ? std::fabs(*a.relative) : (a.delta != 0 ? INFINITY : 0);
  double rb = b.relative ? std::fabs(*b.relative) : (b.delta != 0 ? INFINITY : 0);
  if (ra != rb) return ra > rb;
  return a.name < b.name;
}

double Sum(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

// Time that got worse beyond noise.
bool IsSlowdown(const MetricDelta* time) {
  return time && time->beyond_noise && time->change == Change::kWorse;
}

KernelDiff DiffKernel(const KernelLaunches& before, const KernelLaunches& after,
                      const ReportKernels& after_report, const ReportKernels& before_report) {
  KernelDiff k;
  k.key = before.key;
  k.function_name = before.function_name;
  k.configs_before.assign(before.configs.begin(), before.configs.end());
  k.configs_after.assign(after.configs.begin(), after.configs.end());
  k.launches_before = std::max(before.launches, before.profiled);
  k.launches_after = std::max(after.launches, after.profiled);
  if (!before.traced_durations_ns.empty() && !after.traced_durations_ns.empty()) {
    k.duration =
        Compare(std::string(kTracedDurationName), "ns", before.traced_durations_ns,
                after.traced_durations_ns, Direction::kLowerIsBetter, NoiseClass::kMeasured);
    k.time_saved_ns = Sum(before.traced_durations_ns) - Sum(after.traced_durations_ns);
  }
  for (const auto& [name, values_before] : before.metrics) {
    auto found = after.metrics.find(name);
    if (found == after.metrics.end()) continue;  // not collected in both: nothing to compare
    std::string unit;
    if (auto u = after_report.units.find(name); u != after_report.units.end()) unit = u->second;
    if (auto u = before_report.units.find(name); unit.empty() && u != before_report.units.end()) {
      unit = u->second;
    }
    k.metrics.push_back(
        Compare(name, unit, values_before, found->second, DirectionOf(name), NoiseClassOf(name)));
  }
  std::sort(k.metrics.begin(), k.metrics.end(), BiggerChange);
  // Without a trace, the profiled duration stands for the time saved.
  const MetricDelta* time = k.Time();
  if (!k.time_saved_ns && time) {
    k.time_saved_ns = time->before.mean * static_cast<double>(time->before.count) -
                      time->after.mean * static_cast<double>(time->after.count);
  }
  k.regression = IsSlowdown(time);
  if (before.source && after.source)
    k.source_lines = DiffSourceLines(*before.source, *after.source);
  return k;
}

KernelOnlyIn OnlyIn(const KernelLaunches& group) {
  KernelOnlyIn only;
  only.key = group.key;
  only.function_name = group.function_name;
  only.configs.assign(group.configs.begin(), group.configs.end());
  only.launches = std::max(group.launches, group.profiled);
  only.total_time_ns = Sum(group.traced_durations_ns);
  return only;
}

// The NVTX ranges with GPU work in both reports, and those in one only.
void DiffRanges(const ReportKernels& before, const ReportKernels& after, ReportDiff& diff) {
  auto only_in = [](const std::string& name, const std::vector<double>& times) {
    return RangeOnlyIn{name, times.size(), Sum(times)};
  };
  for (const auto& [name, times] : before.nvtx_projected_ns) {
    auto found = after.nvtx_projected_ns.find(name);
    if (found == after.nvtx_projected_ns.end()) {
      diff.ranges_only_before.push_back(only_in(name, times));
      continue;
    }
    RangeDiff range;
    range.name = name;
    range.projected = Compare(std::string(kProjectedTimeName), "ns", times, found->second,
                              Direction::kLowerIsBetter, NoiseClass::kMeasured, "instances");
    range.time_saved_ns = Sum(times) - Sum(found->second);
    range.regression = IsSlowdown(&range.projected);
    diff.ranges.push_back(std::move(range));
  }
  for (const auto& [name, times] : after.nvtx_projected_ns) {
    if (!before.nvtx_projected_ns.contains(name)) {
      diff.ranges_only_after.push_back(only_in(name, times));
    }
  }
  std::stable_sort(diff.ranges.begin(), diff.ranges.end(),
                   [](const RangeDiff& a, const RangeDiff& b) {
                     return std::fabs(a.time_saved_ns) > std::fabs(b.time_saved_ns);
                   });
}

// How much a kernel changed, for ordering kernels: the time saved or lost, else the largest
// change beyond noise among its metrics.
double Weight(const KernelDiff& k) {
  if (k.time_saved_ns) return std::fabs(*k.time_saved_ns);
  return 0;
}

}  // namespace

const MetricDelta* KernelDiff::Time() const {
  if (duration) return &*duration;
  for (const MetricDelta& m : metrics) {
    if (m.name == kProfiledDurationMetric) return &m;
  }
  return nullptr;
}

ValueSummary Summarize(const std::vector<double>& values) {
  ValueSummary s;
  s.count = values.size();
  if (values.empty()) return s;
  auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;
  s.mean = Sum(values) / static_cast<double>(values.size());
  if (values.size() >= 2 && s.mean != 0) s.relative_range = (s.max - s.min) / std::fabs(s.mean);
  return s;
}

std::string_view ChangeName(Change change) {
  switch (change) {
    case Change::kSame:
      return "same";
    case Change::kBetter:
      return "better";
    case Change::kWorse:
      return "worse";
    case Change::kChanged:
      return "changed";
  }
  return "changed";
}

std::string FormatRelative(const MetricDelta& d) {
  if (d.delta == 0) return "0%";
  if (!d.relative) return "new";
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", *d.relative * 100.0);
  return text;
}

ReportDiff DiffReports(const ReportKernels& before, const ReportKernels& after) {
  ReportDiff diff;
  diff.before_path = before.path;
  diff.after_path = after.path;
  diff.match = before.match;
  std::map<KernelKey, const KernelLaunches*> after_by_key;
  for (const KernelLaunches& group : after.kernels) after_by_key[group.key] = &group;
  for (const KernelLaunches& group : before.kernels) {
    auto found = after_by_key.find(group.key);
    if (found == after_by_key.end()) {
      diff.only_before.push_back(OnlyIn(group));
      continue;
    }
    diff.kernels.push_back(DiffKernel(group, *found->second, after, before));
    after_by_key.erase(found);
  }
  for (const auto& [key, group] : after_by_key) diff.only_after.push_back(OnlyIn(*group));

  std::stable_sort(diff.kernels.begin(), diff.kernels.end(),
                   [](const KernelDiff& a, const KernelDiff& b) {
                     double wa = Weight(a), wb = Weight(b);
                     if (wa != wb) return wa > wb;
                     // Equal time (or none): the kernel with more changes beyond noise.
                     auto count = [](const KernelDiff& k) {
                       return std::count_if(k.metrics.begin(), k.metrics.end(),
                                            [](const MetricDelta& m) { return m.beyond_noise; });
                     };
                     return count(a) > count(b);
                   });
  auto by_time = [](const KernelOnlyIn& a, const KernelOnlyIn& b) {
    return a.total_time_ns > b.total_time_ns;
  };
  std::stable_sort(diff.only_before.begin(), diff.only_before.end(), by_time);
  std::stable_sort(diff.only_after.begin(), diff.only_after.end(), by_time);
  DiffRanges(before, after, diff);
  for (const ReportKernels* report : {&before, &after}) {
    if (!report->source_problem.empty()) {
      diff.source_notes.push_back(report->path + ": " + report->source_problem);
    }
  }
  diff.regressions = std::count_if(diff.kernels.begin(), diff.kernels.end(),
                                   [](const KernelDiff& k) { return k.regression; }) +
                     std::count_if(diff.ranges.begin(), diff.ranges.end(),
                                   [](const RangeDiff& r) { return r.regression; });
  return diff;
}

}  // namespace gpuscope::analysis::diff
