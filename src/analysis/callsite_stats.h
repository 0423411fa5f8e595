// `stats --report cuda_gpu_kern_callsite_sum`: GPU time of kernels per call site (call_sites.h)
// of the API call that launched them, from the `--backtrace` stacks (api_calls.stack_id).
// Kernels whose launch has no stack are one row, "[no call stack]", so that the percentages
// are of all GPU kernel time.
#pragma once

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis {

StatusOr<StatsTable> BuildKernelCallSiteSum(const Reports& reports);

}  // namespace gpuscope::analysis
