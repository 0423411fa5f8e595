// A guided-analysis rule: what it is (id, section, severity, what it checks, how it
// estimates the speedup) and the function that applies it to one kernel. One rule per file
// in this folder; rule_registry.cpp lists them.
#pragma once

#include <optional>
#include <string>

#include "analysis/finding.h"
#include "analysis/rules/rule_inputs.h"

namespace gpuscope::analysis::rules {

struct Rule {
  std::string id;       // "smem_bank_conflicts"
  std::string section;  // ncu section identifier the finding prints after
  Severity severity = Severity::kOpt;
  std::string checks;           // one sentence: the condition over the metrics
  std::string speedup_formula;  // "" for rules that never estimate a speedup
  // nullopt: the rule does not apply (condition false or a metric it needs is missing).
  std::optional<Finding> (*evaluate)(const RuleInputs& inputs) = nullptr;
};

// A finding of `rule` with its identity fields filled in.
Finding MakeFinding(const Rule& rule, std::string title, std::string message,
                    std::optional<double> speedup_pct);

}  // namespace gpuscope::analysis::rules
