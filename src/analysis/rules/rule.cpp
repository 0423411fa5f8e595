#include "analysis/rules/rule.h"

#include <utility>

namespace gpuscope::analysis::rules {

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

}  // namespace gpuscope::analysis::rules
