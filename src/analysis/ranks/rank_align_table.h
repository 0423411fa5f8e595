// rank_align: each report's clock against the reference's (clock_alignment.h), one row per
// report in rank order.
#pragma once

#include <vector>

#include "analysis/ranks/clock_alignment.h"
#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

// Rank (empty when unknown), Host, PID, Offset (ns), Error (ns) (-1: unknown), Method,
// GPU - host (ns) and GPU spread (ns) (the report's GPU clock pairs: the GPU clock's median
// offset from CLOCK_REALTIME and its largest spread on one device over the run; empty without
// GPU pairs).
// Aligns the reports (AlignReports) and lays out their clocks.
StatusOr<StatsTable> BuildRankAlign(const Reports& reports);
// The same table from clocks already aligned (`gpuscope ranks` aligns once for every table).
StatsTable RankAlignTable(const std::vector<RankClock>& clocks);

}  // namespace gpuscope::analysis::ranks
