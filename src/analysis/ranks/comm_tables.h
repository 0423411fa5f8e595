// The communication analysis as statistics tables (`gpuscope stats --report rank_comm_sum,
// nccl_sum`, and the `gpuscope ranks` page):
//   rank_comm_sum  per rank, in the alignment's order: Rank, Host, PID, then the breakdown
//                  of rank_breakdown.h in ns: Span, Compute, Communication, Overlap, Exposed,
//                  Idle host, Idle other, Wait on ranks
//   nccl_sum       NCCL's kernels per collective (Source "kernel": GPU time) then NCCL's API
//                  calls per name (Source "api", host time of their NVTX ranges), summed over
//                  all ranks: Count, Total, Avg, Min, Max (ns), Bytes (empty when the size of
//                  any of them is unknown: see nccl_api_calls.h)
#pragma once

#include <string>
#include <vector>

#include "analysis/ranks/comm_analysis.h"
#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

StatsTable RankCommSumTable(const CommAnalysis& analysis);
StatsTable NcclSumTable(const CommAnalysis& analysis);

// What the numbers cannot say, one line each: no collective matched across the ranks (no
// wait on ranks, no straggler), NCCL API calls whose size is unknown or none recorded at all.
std::vector<std::string> CommunicationNotes(const CommAnalysis& analysis);

// The same tables of the given reports: aligned (AlignReports) and analysed.
StatusOr<StatsTable> BuildRankCommSum(const Reports& reports);
StatusOr<StatsTable> BuildNcclSum(const Reports& reports);

}  // namespace gpuscope::analysis::ranks
