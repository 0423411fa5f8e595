// Trace rules: findings from a report's trace alone, no kernel replay (issue 4). They run
// after `gpuscope run` and in `gpuscope stats --rules`.
//
// Each rule lives in its own file (pageable_copies.cpp, synchronous_transfers.cpp,
// idle_gaps.cpp, launch_bound_kernels.cpp, serialized_transfers.cpp, allocation_in_loop.cpp)
// with its thresholds and its estimated-gain formula next to its condition.
#pragma once

#include <vector>

#include "analysis/finding.h"
#include "analysis/value_range.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::trace_rules {

// Streams the report once (memory bounded whatever its size) and returns the findings that
// matter for this run, in the rules' fixed order; empty for a clean trace. GPU metric sample
// values that cannot be true are not fed to the rules; `impossible` (may be null) counts them.
StatusOr<std::vector<Finding>> RunTraceRules(const store::ReportReader& reader,
                                             ImpossibleValueCounts* impossible = nullptr);

}  // namespace gpuscope::analysis::trace_rules
