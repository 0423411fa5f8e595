// One result of a guided-analysis rule for one profiled kernel, printed after the section
// it belongs to (Nsight Compute's `OPT   Est. Speedup: 42%` lines) and stored in the report
// (store/findings_store.h). Plain values: the store and the printers need nothing else.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::analysis {

struct Finding {
  enum Severity { kOpt, kInf, kWrn };

  std::string rule_id;
  std::string section;  // the ncu section identifier it prints after ("SpeedOfLight")
  Severity severity = kInf;
  std::string title;
  std::string message;  // quotes the kernel's own numbers
  // Estimated share of the kernel's duration that fixing the problem saves, percent.
  std::optional<double> speedup_pct;
  std::string speedup_formula;
};

// "OPT", "INF", "WRN" (ncu's spelling).
std::string_view SeverityName(Finding::Severity severity);
// The inverse; nullopt for anything else.
std::optional<Finding::Severity> ParseSeverity(std::string_view name);

}  // namespace gpuscope::analysis
