// Rule exposed_communication: NCCL kernel time that no compute kernel overlapped. Exposed
// communication adds to every step; overlapped, it would be hidden behind compute.
#include "analysis/ranks/comm_analysis.h"
#include "analysis/ranks/rank_rules.h"
#include "analysis/trace_rules/rule_support.h"

namespace gpuscope::analysis::ranks {

using trace_rules::Duration;
using trace_rules::Percent;

namespace {

// More than 10% of a rank's span: below it, overlapping would gain too little for the
// restructuring it takes.
constexpr double kMinExposedShare = 0.10;

double ExposedShare(const RankBreakdown& breakdown) {
  return breakdown.span_ns == 0
             ? 0.0
             : static_cast<double>(breakdown.exposed_ns) / static_cast<double>(breakdown.span_ns);
}

}  // namespace

std::optional<Finding> FindExposedCommunication(const CommAnalysis& analysis) {
  std::uint64_t ranks = 0;
  std::uint64_t exposed = 0;
  const RankResult* worst = nullptr;
  for (const RankResult& rank : analysis.ranks) {
    if (ExposedShare(rank.breakdown) <= kMinExposedShare) continue;
    ++ranks;
    exposed += rank.breakdown.exposed_ns;
    if (worst == nullptr || ExposedShare(rank.breakdown) > ExposedShare(worst->breakdown)) {
      worst = &rank;
    }
  }
  if (worst == nullptr) return std::nullopt;
  Finding finding;
  finding.rule_id = "exposed_communication";
  finding.severity = Severity::kOpt;
  finding.title = "Exposed communication";
  // At best every exposed nanosecond overlaps compute: the worst rank's exposed time.
  finding.est_gain_ns = worst->breakdown.exposed_ns;
  finding.occurrences = ranks;
  finding.time_ns = exposed;
  finding.message =
      std::to_string(ranks) + " of " + std::to_string(analysis.ranks.size()) +
      " ranks spent more than " + Percent(kMinExposedShare) +
      " of their span in NCCL kernels that no compute kernel overlapped (" + Duration(exposed) +
      " in all); the most: " + RankLabel(worst->clock) + ", " +
      Duration(worst->breakdown.exposed_ns) + " exposed of " +
      Duration(worst->breakdown.communication_ns) + " communication, " +
      Percent(ExposedShare(worst->breakdown)) +
      " of its span. Overlap communication with compute (bucketed gradients, collectives on "
      "their own stream as soon as their data is ready).";
  return finding;
}

}  // namespace gpuscope::analysis::ranks
