// The guided-analysis findings (analysis/rules) of a report's measured kernels, as stored in
// kernel_findings. Computed from the values the evaluation is about to store rather than read
// back after storing them, so that values and findings go into the report together.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/source/source_view.h"
#include "store/profile_store.h"

namespace gpuscope::evaluate {

// profiled_kernels.id -> the findings of each measured kernel in rank order (an empty list
// for a kernel no rule fires on, so that stale findings are replaced); kernels that were not
// measured have none. Empty when no kernel was measured. `sources`: profiled_kernels.id -> its
// source page (analysis/source), for the findings to name their lines; kernels absent there
// get the findings of their metrics alone.
std::map<std::int64_t, std::vector<store::StoredFinding>> FindingsOfMeasuredKernels(
    const std::vector<analysis::metrics::KernelProfile>& kernels,
    const std::map<std::int64_t, analysis::source::KernelSource>& sources = {});

}  // namespace gpuscope::evaluate
