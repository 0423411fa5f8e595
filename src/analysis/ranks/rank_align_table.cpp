#include "analysis/ranks/rank_align_table.h"

namespace gpuscope::analysis::ranks {

StatusOr<StatsTable> BuildRankAlign(const Reports& reports) {
  StatusOr<std::vector<RankClock>> clocks = AlignReports(reports);
  if (!clocks.ok()) return clocks.status();
  return RankAlignTable(clocks.value());
}

StatsTable RankAlignTable(const std::vector<RankClock>& clocks) {
  StatsTable table{"Rank Clock Alignment", "rank_align", "reports", {}, {}};
  table.columns = {{"Rank", ColumnKind::kInteger},
                   {"Host", ColumnKind::kText},
                   {"PID", ColumnKind::kInteger},
                   {"Offset (ns)", ColumnKind::kSignedInteger},
                   {"Error (ns)", ColumnKind::kSignedInteger},
                   {"Method", ColumnKind::kText},
                   {"GPU - host (ns)", ColumnKind::kSignedInteger},
                   {"GPU spread (ns)", ColumnKind::kSignedInteger}};
  for (const RankClock& clock : clocks) {
    table.rows.push_back(
        {clock.rank ? IntegerCell(static_cast<std::uint64_t>(*clock.rank)) : EmptyCell(),
         TextCell(clock.host), IntegerCell(clock.pid), SignedCell(clock.offset_ns),
         SignedCell(clock.error_ns), TextCell(clock.method),
         clock.gpu_minus_realtime ? SignedCell(*clock.gpu_minus_realtime) : EmptyCell(),
         clock.gpu_spread ? SignedCell(*clock.gpu_spread) : EmptyCell()});
  }
  return table;
}

}  // namespace gpuscope::analysis::ranks
