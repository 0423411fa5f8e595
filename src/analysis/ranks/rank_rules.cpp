#include "analysis/ranks/rank_rules.h"

#include "analysis/ranks/comm_analysis.h"

namespace gpuscope::analysis::ranks {

std::uint64_t MeanSpan(const CommAnalysis& analysis) {
  if (analysis.ranks.empty()) return 0;
  std::uint64_t total = 0;
  for (const RankResult& rank : analysis.ranks) total += rank.breakdown.span_ns;
  return total / analysis.ranks.size();
}

std::vector<Finding> RankFindings(const CommAnalysis& analysis) {
  std::vector<Finding> findings;
  for (auto rule : {FindStraggler, FindImbalance, FindExposedCommunication}) {
    if (std::optional<Finding> finding = rule(analysis)) findings.push_back(std::move(*finding));
  }
  return findings;
}

std::span<const trace_rules::TraceRuleDescription> RankRuleCatalog() {
  static constexpr trace_rules::TraceRuleDescription kRules[] = {
      {"rank_straggler",
       "the rank that starts NCCL's collectives last, ranked by the time the other ranks lose "
       "waiting for it; reported when it is last in at least half of the matched collectives "
       "and the others lose at least 1% of the mean span",
       "even out that rank's work before the collective (data loading, host work, a slower "
       "GPU or link) or move work off it"},
      {"rank_imbalance",
       "compute time (non-NCCL kernels) of the busiest rank more than 10% above the median "
       "rank's",
       "balance the work (batch or shard sizes) across ranks"},
      {"exposed_communication",
       "ranks whose NCCL kernel time overlapped by no compute kernel (exposed communication) "
       "exceeds 10% of their span",
       "overlap communication with compute (bucketed gradients, communication on its own "
       "stream started as soon as its data is ready)"},
  };
  return kRules;
}

}  // namespace gpuscope::analysis::ranks
