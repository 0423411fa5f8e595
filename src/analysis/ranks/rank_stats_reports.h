// The multi-rank tables of `gpuscope stats --report` (nsys-style tables over the reports of
// one job, one row per rank or per name across ranks). One entry per table in
// rank_stats_reports.cpp; render/stats_report.h prints them with the others.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

// rank_align, rank_kern_sum, rank_nvtx_sum, rank_comm_sum, nccl_sum.
const std::vector<std::string>& RankStatsReportNames();

// The table `name`, over whole reports (no time window: the rows compare whole ranks). An
// error for a name not in RankStatsReportNames().
StatusOr<StatsTable> BuildRankStatsReport(std::string_view name, const Reports& reports);

}  // namespace gpuscope::analysis::ranks
