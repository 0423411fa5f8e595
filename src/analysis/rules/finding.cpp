#include "analysis/rules/finding.h"

#include "analysis/rules/rule.h"

namespace gpuscope::analysis {

std::string_view SeverityName(Finding::Severity severity) {
  switch (severity) {
    case Finding::kOpt:
      return "OPT";
    case Finding::kInf:
      return "INF";
    case Finding::kWrn:
      return "WRN";
  }
  return "INF";
}

std::optional<Finding::Severity> ParseSeverity(std::string_view name) {
  if (name == "OPT") return Finding::kOpt;
  if (name == "INF") return Finding::kInf;
  if (name == "WRN") return Finding::kWrn;
  return std::nullopt;
}

Finding MakeFinding(const Rule& rule, std::string title, std::string message,
                    std::optional<double> speedup_pct) {
  Finding finding;
  finding.rule_id = rule.id;
  finding.section = rule.section;
  finding.severity = rule.severity;
  finding.title = std::move(title);
  finding.message = std::move(message);
  finding.speedup_pct = speedup_pct;
  finding.speedup_formula = speedup_pct ? rule.speedup_formula : std::string();
  return finding;
}

}  // namespace gpuscope::analysis
