#include "metric_tolerance.h"

#include <cstdio>

namespace gpuscope::ncu_csv {
namespace {

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

std::string Number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

}  // namespace

MetricKind ClassifyMetric(std::string_view metric) {
  if (EndsWith(metric, ".pct") || Contains(metric, ".pct_of_peak")) return MetricKind::kPercent;
  if (metric.substr(0, metric.find('.')) == "gpu__time_duration") return MetricKind::kDuration;
  const bool plain_rollup = EndsWith(metric, ".sum") || EndsWith(metric, ".avg") ||
                            EndsWith(metric, ".max") || EndsWith(metric, ".min");
  if (!plain_rollup) return MetricKind::kOther;  // .ratio, .per_second, .peak_sustained, ...
  // Cycle counts measure time (sm__cycles_active.avg, gpc__cycles_elapsed.max): they move
  // with clocks and scheduling like durations do, not like instruction counts.
  if (Contains(metric, "cycles_")) return MetricKind::kDuration;
  return MetricKind::kCount;
}

std::string_view MetricKindName(MetricKind kind) {
  switch (kind) {
    case MetricKind::kCount:
      return "count";
    case MetricKind::kPercent:
      return "percent";
    case MetricKind::kDuration:
      return "time";
    case MetricKind::kOther:
      return "other";
  }
  return "?";
}

Tolerance Tolerances::For(std::string_view metric) const {
  const std::pair<std::string, Tolerance>* best = nullptr;
  for (const auto& entry : by_prefix) {
    if (metric.substr(0, entry.first.size()) == entry.first &&
        (best == nullptr || entry.first.size() > best->first.size())) {
      best = &entry;
    }
  }
  if (best != nullptr) return best->second;
  switch (ClassifyMetric(metric)) {
    case MetricKind::kCount:
      return count;
    case MetricKind::kPercent:
      return percent;
    case MetricKind::kDuration:
      return duration;
    case MetricKind::kOther:
      return other;
  }
  return other;
}

std::string DescribeTolerance(const Tolerance& tolerance, MetricKind kind) {
  std::string text;
  if (tolerance.relative > 0) text = Number(tolerance.relative * 100) + "%";
  if (tolerance.absolute > 0) {
    if (!text.empty()) text += " or ";
    text += Number(tolerance.absolute) + (kind == MetricKind::kPercent ? " points" : "");
  }
  return text.empty() ? "exact" : text;
}

}  // namespace gpuscope::ncu_csv
