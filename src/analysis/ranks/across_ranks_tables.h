// rank_kern_sum and rank_nvtx_sum: per kernel (per NVTX range) name, how its time spreads
// over the ranks: how many ranks ran it, how often, and the smallest, median and largest
// total time of one rank, with the rank that spent the most (the one the others wait for).
#pragma once

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis::ranks {

// Kernels by demangled name.
StatusOr<StatsTable> BuildRankKernelSum(const Reports& reports);
// NVTX push/pop and start/end ranges by "domain:name" ("name" in the default domain), as
// nvtx_sum names them; marks and ranges that never ended are left out.
StatusOr<StatsTable> BuildRankNvtxSum(const Reports& reports);

}  // namespace gpuscope::analysis::ranks
