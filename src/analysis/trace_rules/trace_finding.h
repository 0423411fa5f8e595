// What a trace rule found: a pattern in the trace alone (no kernel replay), with the numbers
// that make it actionable and the rows of the report that show it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/records.h"

namespace gpuscope::analysis {

// Nsight Compute's severities: OPT a change would make the program faster, WRN something is
// probably wrong, INF worth knowing but not worth acting on alone.
enum class FindingSeverity { kOpt, kWrn, kInf };

std::string_view SeverityName(FindingSeverity severity);  // "OPT", "WRN", "INF"

// A row of the report that shows the finding. `id` is the row's correlation id (what joins
// GPU activities with the API call that issued them); `start` is absolute (report clock).
struct CitedRow {
  std::string table;  // the schema's table: "kernels", "memcpys", "memsets", "api_calls", "memory"
  std::uint64_t id = 0;
  model::Timestamp start = 0;
  std::uint64_t duration_ns = 0;
  std::string note;  // what this row is in the finding ("gap of 5.0ms follows", ...)
};

struct TraceFinding {
  std::string rule_id;
  FindingSeverity severity = FindingSeverity::kInf;
  std::string title;
  std::string message;  // one paragraph, with counts, times and the share of the run
  std::uint64_t est_gain_ns = 0;
  std::uint64_t occurrences = 0;  // how many instances of the pattern (copies, gaps, ...)
  std::uint64_t time_ns = 0;      // the time those instances took
  std::vector<CitedRow> cited;    // the largest few examples, longest first
};

}  // namespace gpuscope::analysis
