#include "analysis/ranks/rank_placement.h"

namespace gpuscope::analysis::ranks {

bool CarryRanks(const Reports& reports) {
  for (const store::ReportReader* report : reports) {
    if (report != nullptr && report->process().rank) return true;
  }
  return false;
}

StatusOr<std::vector<RankPlacement>> PlaceRankedReports(const Reports& reports) {
  if (!CarryRanks(reports)) return std::vector<RankPlacement>{};
  StatusOr<std::vector<RankClock>> clocks = AlignReports(reports);
  if (!clocks.ok()) return clocks.status();
  std::vector<RankPlacement> placements(reports.size());
  for (std::size_t position = 0; position < clocks->size(); ++position) {
    RankClock& clock = clocks.value()[position];
    RankPlacement& placement = placements[clock.index];
    placement.label = RankLabel(IdentityOf(*reports[clock.index]));
    placement.position = position;
    placement.clock = std::move(clock);
  }
  return placements;
}

}  // namespace gpuscope::analysis::ranks
