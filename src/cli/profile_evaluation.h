// Turns the counter data a report holds into metric values (kernel_metrics), with CUPTI's
// host API: needs only the chip name, so it runs after the program on any machine, GPU or
// not. `gpuscope profile` runs it on each report once the program ended; `gpuscope stats
// --page` runs it on reports whose values are missing.
#pragma once

#include <string>
#include <vector>

#include "store/profile_store.h"
#include "util/status.h"

namespace gpuscope::cli {

struct EvaluationSummary {
  std::size_t kernels = 0;            // measured kernels evaluated
  std::size_t failed = 0;             // measured kernels whose data could not be evaluated
  std::vector<std::string> problems;  // one line each
};

// Evaluates every measured kernel of the report at `path` for `metric_names` and stores the
// values and `request` in it.
StatusOr<EvaluationSummary> EvaluateReport(const std::string& path,
                                           const std::vector<std::string>& metric_names,
                                           const store::ProfileRequest& request);

// The metric names a stored request needs (its sections' metrics and its --metrics),
// restricted to what `chip` has.
StatusOr<std::vector<std::string>> MetricsOfRequest(const store::ProfileRequest& request,
                                                    const std::string& chip);

}  // namespace gpuscope::cli
