#include "analysis/trace_rules/rule_support.h"

#include <cstdio>

#include "util/units.h"

namespace gpuscope::analysis::trace_rules {

double ShareOfRun(std::uint64_t time_ns, const RunExtent& run) {
  std::uint64_t span = run.span_ns();
  return span == 0 ? 0.0 : static_cast<double>(time_ns) / static_cast<double>(span);
}

bool WorthReporting(std::uint64_t time_ns, const RunExtent& run) {
  return time_ns > 0 && ShareOfRun(time_ns, run) >= kMinShareOfRun;
}

Severity SeverityFor(std::uint64_t gain_ns, const RunExtent& run) {
  return ShareOfRun(gain_ns, run) >= kOptShareOfRun ? Severity::kOpt : Severity::kInf;
}

std::string Duration(std::uint64_t ns) {
  return FormatTime(static_cast<double>(ns), TimeUnit::kAuto);
}

std::string Percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", share * 100.0);
  return text;
}

std::string Count(std::uint64_t n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

CitedRow CiteActivity(const GpuActivity& activity, std::string note) {
  return CitedRow{ActivityTable(activity.kind), activity.correlation_id, activity.start,
                  activity.duration_ns(), std::move(note)};
}

}  // namespace gpuscope::analysis::trace_rules
