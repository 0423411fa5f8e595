#include "analysis/ranks/comm_analysis.h"

#include "analysis/ranks/collectives.h"
#include "analysis/ranks/parallel_reports.h"
#include "analysis/ranks/rank_rules.h"
#include "analysis/ranks/rank_source.h"

namespace gpuscope::analysis::ranks {
namespace {

// Wait on ranks and who arrived last, over the collectives matched across all ranks.
std::size_t AddWaits(const std::vector<std::vector<CollectiveEvent>>& per_rank,
                     std::vector<RankResult>& ranks) {
  std::vector<MatchedCollective> matched = MatchCollectives(per_rank);
  for (const MatchedCollective& collective : matched) {
    std::int64_t latest = 0;
    std::size_t last = 0;
    for (std::size_t r = 0; r < per_rank.size(); ++r) {
      std::int64_t start = per_rank[r][collective.event[r]].start;
      if (r == 0 || start > latest) {
        latest = start;
        last = r;
      }
    }
    std::uint64_t lost = 0;
    for (std::size_t r = 0; r < per_rank.size(); ++r) {
      auto wait = static_cast<std::uint64_t>(latest - per_rank[r][collective.event[r]].start);
      ranks[r].breakdown.wait_on_ranks_ns += wait;
      lost += wait;
    }
    if (lost == 0) continue;  // all arrived together: nobody was last
    ++ranks[last].arrived_last;
    ++ranks[last].arrived_last_by_kind[collective.kind];
    ranks[last].others_lost_ns += lost;
  }
  return matched.size();
}

}  // namespace

std::string RankLabel(const RankClock& clock) {
  RankIdentity identity;
  identity.path = clock.path;
  identity.rank = clock.rank;
  identity.hostname = clock.host;
  identity.pid = clock.pid;
  return RankLabel(identity);
}

StatusOr<CommAnalysis> AnalyzeCommunication(const std::vector<RankClock>& clocks,
                                            std::size_t threads) {
  std::vector<RankCommunication> read(clocks.size());
  GPUSCOPE_RETURN_IF_ERROR(ForEachReportInParallel(
      clocks.size(),
      [&](std::size_t i) -> Status {
        StatusOr<RankCommunication> rank =
            ReadRankCommunication(clocks[i].path, clocks[i].offset_ns);
        if (!rank.ok()) return rank.status();
        read[i] = std::move(rank.value());
        return {};
      },
      threads));
  CommAnalysis analysis;
  std::vector<std::vector<CollectiveEvent>> collectives;
  collectives.reserve(clocks.size());
  for (std::size_t i = 0; i < clocks.size(); ++i) {
    RankCommunication& rank = read[i];
    analysis.ranks.push_back({clocks[i], rank.breakdown, 0, 0, {}});
    for (const auto& [kind, totals] : rank.nccl_kernels) analysis.nccl_kernels[kind].Merge(totals);
    for (const auto& [name, totals] : rank.nccl_api_calls) {
      analysis.nccl_api_calls[name].Merge(totals);
    }
    analysis.warnings.insert(analysis.warnings.end(), rank.warnings.begin(), rank.warnings.end());
    collectives.push_back(std::move(rank.collectives));
    rank = RankCommunication();  // its summary is kept; the rest goes now
  }
  analysis.matched_collectives = AddWaits(collectives, analysis.ranks);
  analysis.findings = RankFindings(analysis);
  return analysis;
}

}  // namespace gpuscope::analysis::ranks
