// WriteStatsReport: analysis builds the table, stats_table_format prints it.
#include "render/stats_report.h"

#include "analysis/stats_reports.h"

namespace gpuscope::render {

Status WriteStatsReport(std::string_view name, const analysis::Reports& reports, StatsFormat format,
                        std::ostream& out, const analysis::TimeWindow& window) {
  StatusOr<analysis::StatsTable> table = analysis::BuildStatsReport(name, reports, window);
  if (!table.ok()) return table.status();
  WriteStatsTable(*table, format, out);
  return Status();
}

}  // namespace gpuscope::render
