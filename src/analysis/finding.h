// One result of a rule, kernel rule or trace rule alike: printed by render/ (kernel findings
// after the section they belong to, Nsight Compute's `OPT   Est. Speedup: 42%` lines; trace
// findings after a run's summary) and stored in the report as text (store/profile_store.h:
// kernel_findings.severity is "OPT", "INF" or "WRN"). Plain values: the store and the
// printers need nothing else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/records.h"

namespace gpuscope::analysis {

// Nsight Compute's severities: OPT a change would make the program faster, WRN something is
// probably wrong, INF worth knowing but not worth acting on alone.
enum class Severity { kOpt, kInf, kWrn };

// "OPT", "INF", "WRN" (ncu's spelling; what reports store).
std::string_view SeverityName(Severity severity);
// The inverse; nullopt for anything else.
std::optional<Severity> ParseSeverity(std::string_view name);

// A row of the report that shows a trace finding. `id` is the row's correlation id (what
// joins GPU activities with the API call that issued them); `start` is absolute (report clock).
struct CitedRow {
  std::string table;  // the schema's table: "kernels", "memcpys", "memsets", "api_calls", "memory"
  std::uint64_t id = 0;
  model::Timestamp start = 0;
  std::uint64_t duration_ns = 0;
  std::string note;  // what this row is in the finding ("gap of 5.0ms follows", ...)
};

struct Finding {
  std::string rule_id;
  Severity severity = Severity::kInf;
  std::string title;
  std::string message;  // quotes the kernel's or the run's own numbers

  // Kernel rules (analysis/rules), about one profiled kernel:
  std::string section;  // the ncu section identifier it prints after ("SpeedOfLight")
  // Estimated share of the kernel's duration that fixing the problem saves, percent.
  std::optional<double> speedup_pct;
  std::string speedup_formula;

  // Trace rules (analysis/trace_rules), about the whole run:
  std::uint64_t est_gain_ns = 0;
  std::uint64_t occurrences = 0;  // how many instances of the pattern (copies, gaps, ...)
  std::uint64_t time_ns = 0;      // the time those instances took
  std::vector<CitedRow> cited;    // the largest few examples, longest first
};

}  // namespace gpuscope::analysis
