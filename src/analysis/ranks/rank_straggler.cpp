// Rule rank_straggler: the rank the others wait for. In a collective every rank waits until
// the last one arrives (starts its NCCL kernel), so the rank that is last again and again
// costs every other rank that wait, step after step.
#include "analysis/ranks/comm_analysis.h"
#include "analysis/ranks/rank_rules.h"
#include "analysis/trace_rules/rule_support.h"

namespace gpuscope::analysis::ranks {

using trace_rules::Duration;
using trace_rules::Percent;

namespace {

// Last in at least half of the collectives: a pattern, not the noise of who happens to
// arrive a microsecond later (with N ranks arriving at random, each is last in 1/N).
constexpr double kMinShareLast = 0.5;
// The others' loss must reach 1% of the mean span, the trace rules' floor: below it a fix
// could not be measured against run-to-run noise.
constexpr double kMinLossOfMeanSpan = 0.01;
// From 5% the finding is an optimisation (OPT), below it information (INF).
constexpr double kOptLossOfMeanSpan = 0.05;

}  // namespace

std::optional<Finding> FindStraggler(const CommAnalysis& analysis) {
  if (analysis.ranks.size() < 2 || analysis.matched_collectives == 0) return std::nullopt;
  const RankResult* straggler = nullptr;
  for (const RankResult& rank : analysis.ranks) {
    if (straggler == nullptr || rank.others_lost_ns > straggler->others_lost_ns) straggler = &rank;
  }
  double share_last = static_cast<double>(straggler->arrived_last) /
                      static_cast<double>(analysis.matched_collectives);
  std::uint64_t mean_span = MeanSpan(analysis);
  double loss = mean_span == 0 ? 0.0
                               : static_cast<double>(straggler->others_lost_ns) /
                                     static_cast<double>(mean_span);
  if (share_last < kMinShareLast || loss < kMinLossOfMeanSpan) return std::nullopt;
  std::size_t others = analysis.ranks.size() - 1;
  std::string kinds;  // "95 AllReduce, 3 AllGather"
  for (const auto& [kind, count] : straggler->arrived_last_by_kind) {
    kinds += (kinds.empty() ? "" : ", ") + std::to_string(count) + " " + kind;
  }
  Finding finding;
  finding.rule_id = "rank_straggler";
  finding.severity = loss >= kOptLossOfMeanSpan ? Severity::kOpt : Severity::kInf;
  finding.title = "Straggler rank in collectives";
  // The others' lost time is what making the straggler arrive on time gives back.
  finding.est_gain_ns = straggler->others_lost_ns;
  finding.occurrences = straggler->arrived_last;
  finding.time_ns = straggler->others_lost_ns;
  finding.message =
      RankLabel(straggler->clock) + " started its NCCL kernel last in " +
      std::to_string(straggler->arrived_last) + " of " +
      std::to_string(analysis.matched_collectives) + " matched collectives (" +
      Percent(share_last) + ": " + kinds + "); the other " + std::to_string(others) +
      " ranks lost " + Duration(straggler->others_lost_ns) + " waiting for it there (" +
      Duration(straggler->others_lost_ns / others) + " per rank on average, " +
      Percent(loss / static_cast<double>(others)) +
      " of the mean span). Find what delays this rank before its collectives (data loading, "
      "host work, a slower GPU or link) and even it out.";
  return finding;
}

}  // namespace gpuscope::analysis::ranks
