// The profiled kernels of a report as the sections and printers see them: each measured
// launch joined with its trace record (launch configuration, by correlation id), its device
// and its evaluated metrics.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis::metrics {

// In profile order. Kernels whose metrics were not evaluated yet have an empty `metrics`
// map (and `measured` still true when their counter data is in the report).
StatusOr<std::vector<KernelProfile>> LoadKernelProfiles(const store::ReportReader& report);

// Replaces `profile.metrics` with stored values as the loader reads them: a value CUPTI could
// not evaluate (NULL, NaN) is left out, and so is one that cannot be true (analysis/value_range.h:
// counted in `profile.impossible_values`). The evaluation uses it too, to run the rules on the
// values it is about to store exactly as a later reader will see them.
void AssignMetrics(KernelProfile& profile, const std::vector<store::StoredMetric>& stored);

// The one warning for every value `profiles` left out as impossible; nullopt when none was.
std::optional<std::string> ImpossibleValueWarning(const std::vector<KernelProfile>& profiles);

}  // namespace gpuscope::analysis::metrics
