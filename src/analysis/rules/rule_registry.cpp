#include "analysis/rules/rule_registry.h"

#include <algorithm>

#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {

const std::vector<Rule>& AllRules() {
  static const std::vector<Rule> rules = {
      SolBoundRule(),
      TheoreticalOccupancyRule(),
      AchievedOccupancyRule(),
      SmallGridRule(),
      TailEffectRule(),
      Fp64WithFp32DataRule(),
      Fp64ExecutedRule(),
      UnfusedFpRule(),
      UncoalescedGlobalLoadsRule(),
      UncoalescedGlobalStoresRule(),
      SmemBankConflictsRule(),
      LocalMemorySpillsRule(),
      MemoryTrafficRule(),
      DivergentBranchesRule(),
      TopStallReasonRule(),
      FewEligibleWarpsRule(),
  };
  return rules;
}

std::vector<Finding> RunKernelRules(const metrics::KernelProfile& profile,
                                    const source::KernelSource* source) {
  std::vector<Finding> findings;
  if (!profile.measured || profile.metrics.empty()) return findings;
  const RuleInputs inputs(profile, source);
  for (const Rule& rule : AllRules()) {
    if (std::optional<Finding> finding = rule.evaluate(inputs)) {
      findings.push_back(std::move(*finding));
    }
  }
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return a.speedup_pct.value_or(-1) > b.speedup_pct.value_or(-1);
  });
  return findings;
}

}  // namespace gpuscope::analysis::rules
