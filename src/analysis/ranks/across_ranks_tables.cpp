#include "analysis/ranks/across_ranks_tables.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/duration_stats.h"
#include "analysis/ranks/clock_alignment.h"
#include "analysis/ranks/parallel_reports.h"
#include "analysis/ranks/rank_source.h"

namespace gpuscope::analysis::ranks {
namespace {

struct Total {
  std::uint64_t time = 0;  // ns
  std::uint64_t instances = 0;
};

// One report's totals by name (a name the report never ran is absent).
using NameTotals = std::unordered_map<std::string, Total>;

// The label of the rank in "Max Rank": its number, or host and pid when it has none.
std::string ShortRankLabel(const RankIdentity& identity) {
  if (identity.rank) return std::to_string(*identity.rank);
  return identity.hostname + ", " + std::to_string(identity.pid);
}

StatsTable AcrossRanksTable(std::string title, std::string name, std::string subject,
                            const Reports& reports, const std::vector<NameTotals>& per_report) {
  std::vector<RankIdentity> identities;
  for (const store::ReportReader* report : reports) identities.push_back(IdentityOf(*report));
  // Per name, the ranks' totals in rank order (so that ties name the lowest rank).
  struct Spread {
    std::uint64_t instances = 0;
    std::vector<std::int64_t> totals;
    std::uint64_t max = 0;
    std::size_t max_report = 0;
  };
  std::map<std::string, Spread> by_name;
  for (std::size_t i : RankOrder(identities)) {
    for (const auto& [label, total] : per_report[i]) {
      Spread& spread = by_name[label];
      spread.instances += total.instances;
      if (spread.totals.empty() || total.time > spread.max) {
        spread.max = total.time;
        spread.max_report = i;
      }
      spread.totals.push_back(static_cast<std::int64_t>(total.time));
    }
  }
  StatsTable table{std::move(title), std::move(name), std::move(subject), {}, {}};
  table.columns = {{"Ranks", ColumnKind::kInteger},
                   {"Instances", ColumnKind::kInteger},
                   {"Total/Rank Min (ns)", ColumnKind::kInteger},
                   {"Total/Rank Med (ns)", ColumnKind::kInteger},
                   {"Total/Rank Max (ns)", ColumnKind::kInteger},
                   {"Max Rank", ColumnKind::kText},
                   {"Name", ColumnKind::kText}};
  std::vector<std::pair<const std::string*, Spread*>> rows;
  for (auto& [label, spread] : by_name) rows.emplace_back(&label, &spread);
  // The largest time of one rank first: that rank sets the pace of the step.
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return a.second->max > b.second->max; });
  for (auto& [label, spread] : rows) {
    const std::size_t ranks = spread->totals.size();
    const std::int64_t min = *std::min_element(spread->totals.begin(), spread->totals.end());
    const std::int64_t median = LowerMedian(spread->totals);
    table.rows.push_back({IntegerCell(ranks), IntegerCell(spread->instances),
                          IntegerCell(static_cast<std::uint64_t>(min)),
                          IntegerCell(static_cast<std::uint64_t>(median)), IntegerCell(spread->max),
                          TextCell(ShortRankLabel(identities[spread->max_report])),
                          TextCell(*label)});
  }
  return table;
}

// Reads every report's totals on several threads; `read` fills one report's.
template <typename ReadTotals>
StatusOr<std::vector<NameTotals>> TotalsOfReports(const Reports& reports, ReadTotals read) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  std::vector<NameTotals> per_report(reports.size());
  GPUSCOPE_RETURN_IF_ERROR(ForEachReportInParallel(
      reports.size(), [&](std::size_t i) { return read(*reports[i], per_report[i]); }));
  return per_report;
}

}  // namespace

StatusOr<StatsTable> BuildRankKernelSum(const Reports& reports) {
  StatusOr<std::vector<NameTotals>> totals =
      TotalsOfReports(reports, [](const store::ReportReader& report, NameTotals& out) {
        // By name id while reading (no string per kernel), by name once read.
        std::unordered_map<std::uint32_t, std::pair<std::string_view, Total>> by_id;
        Status read = report.ForEachKernel([&](const store::KernelRow& row) {
          if (!HasTimestamps(row.record.start, row.record.end)) return true;
          auto [entry, added] = by_id.try_emplace(row.name_id);
          if (added) entry->second.first = row.demangled_name;
          entry->second.second.time += row.record.end - row.record.start;
          entry->second.second.instances += 1;
          return true;
        });
        for (const auto& [id, named] : by_id) {
          Total& total = out[std::string(named.first)];
          total.time += named.second.time;
          total.instances += named.second.instances;
        }
        return read;
      });
  if (!totals.ok()) return totals.status();
  return AcrossRanksTable("CUDA GPU Kernels Across Ranks", "rank_kern_sum", "CUDA kernel data",
                          reports, totals.value());
}

StatusOr<StatsTable> BuildRankNvtxSum(const Reports& reports) {
  StatusOr<std::vector<NameTotals>> totals =
      TotalsOfReports(reports, [](const store::ReportReader& report, NameTotals& out) {
        std::string key;
        return report.ForEachNvtx([&](const model::NvtxRecord& record) {
          if (record.kind == model::NvtxKind::kMark) return true;
          if (!HasTimestamps(record.start, record.end)) return true;  // never ended
          key.assign(record.domain).append(record.domain.empty() ? "" : ":").append(record.name);
          Total& total = out[key];
          total.time += record.end - record.start;
          total.instances += 1;
          return true;
        });
      });
  if (!totals.ok()) return totals.status();
  return AcrossRanksTable("NVTX Ranges Across Ranks", "rank_nvtx_sum", "NVTX range data", reports,
                          totals.value());
}

}  // namespace gpuscope::analysis::ranks
