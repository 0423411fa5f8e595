#include "analysis/ranks/rank_stats_reports.h"

#include <array>

#include "analysis/ranks/across_ranks_tables.h"
#include "analysis/ranks/comm_tables.h"
#include "analysis/ranks/rank_align_table.h"

namespace gpuscope::analysis::ranks {
namespace {

struct RankStatsReport {
  const char* name;
  StatusOr<StatsTable> (*build)(const Reports&);
};

constexpr std::array<RankStatsReport, 5> kRankStatsReports = {{
    {"rank_align", BuildRankAlign},
    {"rank_kern_sum", BuildRankKernelSum},
    {"rank_nvtx_sum", BuildRankNvtxSum},
    {"rank_comm_sum", BuildRankCommSum},
    {"nccl_sum", BuildNcclSum},
}};

}  // namespace

const std::vector<std::string>& RankStatsReportNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const RankStatsReport& report : kRankStatsReports) list.emplace_back(report.name);
    return list;
  }();
  return names;
}

StatusOr<StatsTable> BuildRankStatsReport(std::string_view name, const Reports& reports) {
  for (const RankStatsReport& report : kRankStatsReports) {
    if (name != report.name) continue;
    GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
    return report.build(reports);
  }
  return Status::Error("unknown multi-rank report '" + std::string(name) + "'");
}

}  // namespace gpuscope::analysis::ranks
