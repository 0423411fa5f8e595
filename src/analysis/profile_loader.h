// The profiled kernels of a report as the sections and printers see them: each measured
// launch joined with its trace record (launch configuration, by correlation id), its device
// and its evaluated metrics.
#pragma once

#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis {

// In profile order. Kernels whose metrics were not evaluated yet have an empty `metrics`
// map (and `measured` still true when their counter data is in the report).
StatusOr<std::vector<KernelProfile>> LoadKernelProfiles(const store::ReportReader& report);

}  // namespace gpuscope::analysis
