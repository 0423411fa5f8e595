// `gpuscope stats --report NAME`: one of nsys's statistics reports (analysis/stats_reports.h)
// built from reports and printed.
#pragma once

#include <ostream>
#include <string_view>

#include "analysis/report_checks.h"
#include "analysis/time_window.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::render {

// Column format is nsys's aligned table under " ** Title (name):", CSV a header row and
// rows, JSON an array of objects keyed by column name. An unknown name is an error listing
// the known ones (analysis::StatsReportNames()).
// With a `window`, over the events that overlap it (analysis/time_window.h).
Status WriteStatsReport(std::string_view name, const analysis::Reports& reports, StatsFormat format,
                        std::ostream& out, const analysis::TimeWindow& window = {});

}  // namespace gpuscope::render
