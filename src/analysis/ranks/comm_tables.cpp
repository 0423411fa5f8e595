#include "analysis/ranks/comm_tables.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace gpuscope::analysis::ranks {
namespace {

void AddOperationRows(const OperationsByName& operations, const char* source, StatsTable& table) {
  std::vector<std::pair<std::string, OperationTotals>> rows(operations.begin(), operations.end());
  // Most time first (nsys's order), then by name so that the order is stable.
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second.total_ns > b.second.total_ns;
  });
  for (const auto& [name, totals] : rows) {
    table.rows.push_back({
        TextCell(name),
        TextCell(source),
        IntegerCell(totals.count),
        IntegerCell(totals.total_ns),
        DecimalCell(totals.count == 0
                        ? 0.0
                        : static_cast<double>(totals.total_ns) / static_cast<double>(totals.count)),
        IntegerCell(totals.min_ns),
        IntegerCell(totals.max_ns),
        totals.without_bytes == 0 ? IntegerCell(totals.bytes) : EmptyCell(),
    });
  }
}

StatusOr<CommAnalysis> Analyze(const Reports& reports) {
  StatusOr<std::vector<RankClock>> clocks = AlignReports(reports);
  if (!clocks.ok()) return clocks.status();
  return AnalyzeCommunication(*clocks);
}

}  // namespace

StatsTable RankCommSumTable(const CommAnalysis& analysis) {
  StatsTable table;
  table.title = "Communication per Rank";
  table.name = "rank_comm_sum";
  table.subject = "GPU activity";
  table.columns = {{"Rank", ColumnKind::kInteger},
                   {"Host", ColumnKind::kText},
                   {"PID", ColumnKind::kInteger},
                   {"Span (ns)", ColumnKind::kInteger},
                   {"Compute (ns)", ColumnKind::kInteger},
                   {"Communication (ns)", ColumnKind::kInteger},
                   {"Overlap (ns)", ColumnKind::kInteger},
                   {"Exposed (ns)", ColumnKind::kInteger},
                   {"Idle host (ns)", ColumnKind::kInteger},
                   {"Idle other (ns)", ColumnKind::kInteger},
                   {"Wait on ranks (ns)", ColumnKind::kInteger}};
  for (const RankResult& rank : analysis.ranks) {
    const RankBreakdown& b = rank.breakdown;
    table.rows.push_back({
        rank.clock.rank ? IntegerCell(static_cast<std::uint64_t>(*rank.clock.rank)) : EmptyCell(),
        TextCell(rank.clock.host),
        IntegerCell(rank.clock.pid),
        IntegerCell(b.span_ns),
        IntegerCell(b.compute_ns),
        IntegerCell(b.communication_ns),
        IntegerCell(b.overlap_ns),
        IntegerCell(b.exposed_ns),
        IntegerCell(b.idle_host_ns),
        IntegerCell(b.idle_other_ns),
        IntegerCell(b.wait_on_ranks_ns),
    });
  }
  return table;
}

StatsTable NcclSumTable(const CommAnalysis& analysis) {
  StatsTable table;
  table.title = "NCCL Summary";
  table.name = "nccl_sum";
  table.subject = "NCCL kernels or API calls";
  table.columns = {{"Operation", ColumnKind::kText},    {"Source", ColumnKind::kText},
                   {"Count", ColumnKind::kInteger},     {"Total (ns)", ColumnKind::kInteger},
                   {"Avg (ns)", ColumnKind::kDecimal1}, {"Min (ns)", ColumnKind::kInteger},
                   {"Max (ns)", ColumnKind::kInteger},  {"Bytes", ColumnKind::kInteger}};
  AddOperationRows(analysis.nccl_kernels, "kernel", table);
  AddOperationRows(analysis.nccl_api_calls, "api", table);
  return table;
}

std::vector<std::string> CommunicationNotes(const CommAnalysis& analysis) {
  std::vector<std::string> notes;
  if (analysis.ranks.size() > 1 && analysis.matched_collectives == 0) {
    notes.push_back(
        "no NCCL collective was matched across all ranks: wait on ranks is 0 and no straggler "
        "can be named");
  }
  std::uint64_t calls = 0;
  std::uint64_t unsized = 0;
  for (const auto& [name, totals] : analysis.nccl_api_calls) {
    calls += totals.count;
    unsized += totals.without_bytes;
  }
  if (!analysis.nccl_kernels.empty() && calls == 0) {
    notes.push_back(
        "no NCCL API calls recorded (NVTX ranges of the domain \"NCCL\"): NCCL was built "
        "without NVTX or run with NCCL_NVTX_DISABLE=1");
  }
  if (unsized > 0) {
    notes.push_back("bytes unknown for " + std::to_string(unsized) + " of " +
                    std::to_string(calls) +
                    " NCCL API calls: NCCL passes the size in the NVTX range's payload, which "
                    "reports do not store");
  }
  return notes;
}

StatusOr<StatsTable> BuildRankCommSum(const Reports& reports) {
  StatusOr<CommAnalysis> analysis = Analyze(reports);
  if (!analysis.ok()) return analysis.status();
  return RankCommSumTable(*analysis);
}

StatusOr<StatsTable> BuildNcclSum(const Reports& reports) {
  StatusOr<CommAnalysis> analysis = Analyze(reports);
  if (!analysis.ok()) return analysis.status();
  return NcclSumTable(*analysis);
}

}  // namespace gpuscope::analysis::ranks
