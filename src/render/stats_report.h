// `gpuscope stats --report NAME`: one of nsys's statistics reports (analysis/stats_reports.h)
// built from reports and printed.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/report_checks.h"
#include "analysis/time_window.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::render {

// Every table `stats --report` knows: nsys's (analysis::StatsReportNames()) and the
// multi-rank ones (analysis::ranks::RankStatsReportNames()).
const std::vector<std::string>& AllStatsReportNames();

// Column format is nsys's aligned table under " ** Title (name):", CSV a header row and
// rows, JSON an array of objects keyed by column name. An unknown name is an error listing
// the known ones (AllStatsReportNames()).
// With a `window`, over the events that overlap it (analysis/time_window.h); the multi-rank
// tables compare whole ranks and refuse a window.
Status WriteStatsReport(std::string_view name, const analysis::Reports& reports, StatsFormat format,
                        std::ostream& out, const analysis::TimeWindow& window = {});

}  // namespace gpuscope::render
