// WriteStatsReport: analysis builds the table, stats_table_format prints it.
#include "render/stats_report.h"

#include <algorithm>

#include "analysis/ranks/rank_stats_reports.h"
#include "analysis/stats_reports.h"

namespace gpuscope::render {
namespace {

bool IsRankStatsReport(std::string_view name) {
  const std::vector<std::string>& names = analysis::ranks::RankStatsReportNames();
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string KnownNames() {
  std::string list;
  for (const std::string& name : AllStatsReportNames()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

StatusOr<analysis::StatsTable> BuildTable(std::string_view name, const analysis::Reports& reports,
                                          const analysis::TimeWindow& window) {
  if (IsRankStatsReport(name)) {
    if (!window.IsAll()) {
      return Status::Error(std::string(name) + ": this table is built over whole reports only");
    }
    return analysis::ranks::BuildRankStatsReport(name, reports);
  }
  const std::vector<std::string>& nsys = analysis::StatsReportNames();
  if (std::find(nsys.begin(), nsys.end(), name) == nsys.end()) {
    return Status::Error("unknown report '" + std::string(name) +
                         "' (known reports: " + KnownNames() + ")");
  }
  return analysis::BuildStatsReport(name, reports, window);
}

}  // namespace

const std::vector<std::string>& AllStatsReportNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = analysis::StatsReportNames();
    const std::vector<std::string>& ranks = analysis::ranks::RankStatsReportNames();
    all.insert(all.end(), ranks.begin(), ranks.end());
    return all;
  }();
  return names;
}

Status WriteStatsReport(std::string_view name, const analysis::Reports& reports, StatsFormat format,
                        std::ostream& out, const analysis::TimeWindow& window) {
  StatusOr<analysis::StatsTable> table = BuildTable(name, reports, window);
  if (!table.ok()) return table.status();
  WriteStatsTable(*table, format, out);
  return Status();
}

}  // namespace gpuscope::render
