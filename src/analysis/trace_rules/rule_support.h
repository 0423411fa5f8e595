// What every rule shares: when a pattern is worth reporting, how severe it is, and how its
// numbers are written in messages.
#pragma once

#include <cstdint>
#include <string>

#include "analysis/finding.h"
#include "analysis/trace_rules/trace_rule.h"

namespace gpuscope::analysis::trace_rules {

// A pattern whose time is under 1% of the run is not reported: fixing it could not be
// measured against run-to-run noise, and a findings list the user can trust matters more
// than a long one.
inline constexpr double kMinShareOfRun = 0.01;
// From 5% of the run a fix is clearly worth its effort (OPT); between 1% and 5% the finding
// is shown as information (INF).
inline constexpr double kOptShareOfRun = 0.05;

// `time_ns` as a share of the run, 0 for an empty run.
double ShareOfRun(std::uint64_t time_ns, const RunExtent& run);
bool WorthReporting(std::uint64_t time_ns, const RunExtent& run);
Severity SeverityFor(std::uint64_t gain_ns, const RunExtent& run);

// "1.2345ms" (nvprof's auto unit), "12.3%", "3 copies" / "1 copy".
std::string Duration(std::uint64_t ns);
std::string Percent(double share);
std::string Count(std::uint64_t n, const std::string& singular, const std::string& plural);

// A cited row for a GPU activity.
CitedRow CiteActivity(const GpuActivity& activity, std::string note = {});

}  // namespace gpuscope::analysis::trace_rules
