// Rule rank_imbalance: compute time (kernels that are not NCCL's) uneven across ranks. In a
// synchronous job every step waits for the slowest rank, so the busiest rank's excess over
// the typical rank is lost by all the others.
#include <vector>

#include "analysis/ranks/comm_analysis.h"
#include "analysis/ranks/rank_rules.h"
#include "analysis/ranks/rank_source.h"
#include "analysis/trace_rules/rule_support.h"

namespace gpuscope::analysis::ranks {

using trace_rules::Duration;
using trace_rules::Percent;

namespace {

// More than 10% above the median rank: kernel durations of identical work vary by a few
// percent between GPUs (clocks, thermals); beyond that the work itself differs.
constexpr double kMaxExcessOverMedian = 0.10;

}  // namespace

std::optional<Finding> FindImbalance(const CommAnalysis& analysis) {
  if (analysis.ranks.size() < 2) return std::nullopt;
  std::vector<std::int64_t> compute;
  const RankResult* busiest = nullptr;
  for (const RankResult& rank : analysis.ranks) {
    compute.push_back(static_cast<std::int64_t>(rank.breakdown.compute_ns));
    if (busiest == nullptr || rank.breakdown.compute_ns > busiest->breakdown.compute_ns) {
      busiest = &rank;
    }
  }
  // The lower middle, as everywhere in the rank tables (integers stay integers).
  auto median = static_cast<std::uint64_t>(LowerMedian(compute));
  std::uint64_t most = busiest->breakdown.compute_ns;
  if (median == 0 || most <= median) return std::nullopt;
  double excess = static_cast<double>(most - median) / static_cast<double>(median);
  if (excess <= kMaxExcessOverMedian) return std::nullopt;
  Finding finding;
  finding.rule_id = "rank_imbalance";
  finding.severity = Severity::kOpt;
  finding.title = "Compute imbalance across ranks";
  // At best the busiest rank does the median rank's work, and every step shortens by that.
  finding.est_gain_ns = most - median;
  finding.occurrences = 1;
  finding.time_ns = most - median;
  finding.message = RankLabel(busiest->clock) + " computed for " + Duration(most) +
                    " (kernels other than NCCL's), " + Percent(excess) +
                    " more than the median rank's " + Duration(median) +
                    "; the ranks that finish first wait for it in the next collective. "
                    "Balance the work across ranks (batch, shard or sequence sizes).";
  return finding;
}

}  // namespace gpuscope::analysis::ranks
