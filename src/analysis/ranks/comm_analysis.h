// The communication analysis of a multi-rank job (issue 16): every rank's temporal breakdown
// on the aligned axis (rank_breakdown.h), NCCL's collectives matched across ranks (who waited
// for whom), NCCL's kernels and API calls summed, and the findings of the rank rules
// (rank_rules.h). In-process: threads over the reports, each report streamed once, so that
// no report's rows are ever all in memory; what is kept across reports is per rank a few
// numbers and its list of NCCL kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "analysis/finding.h"
#include "analysis/ranks/clock_alignment.h"
#include "analysis/ranks/rank_breakdown.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

struct RankResult {
  RankClock clock;
  RankBreakdown breakdown;
  // Matched collectives in which this rank started last (arrived last), and the time the
  // others lost waiting for it there: Σ over those collectives of Σ_r (its start - start_r).
  std::uint64_t arrived_last = 0;
  std::uint64_t others_lost_ns = 0;
  std::map<std::string, std::uint64_t, std::less<>> arrived_last_by_kind;  // by collective
};

struct CommAnalysis {
  std::vector<RankResult> ranks;  // in the order of the clocks given
  std::size_t matched_collectives = 0;
  OperationsByName nccl_kernels;      // all ranks, by collective
  OperationsByName nccl_api_calls;    // all ranks, by API name
  std::vector<Finding> findings;      // rank_straggler, rank_imbalance, exposed_communication
  std::vector<std::string> warnings;  // every report's (rank_breakdown.h), in rank order
};

// rank_source.h's label of the rank: "rank 3 (node7, 4242)", or "node7, 4242".
std::string RankLabel(const RankClock& clock);

// Reads every report of `clocks` (AlignReports' result: paths and offsets) on `threads`
// threads (0: one per core; parallel_reports.h) and analyses them together.
StatusOr<CommAnalysis> AnalyzeCommunication(const std::vector<RankClock>& clocks,
                                            std::size_t threads = 0);

}  // namespace gpuscope::analysis::ranks
