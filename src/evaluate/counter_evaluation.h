// The counter data of a report's measured kernels turned into metric values with CUPTI's host
// API (needs only the chip name the report stores, so it runs on any machine, GPU or not).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "evaluate/metric_hosts.h"
#include "store/profile_store.h"
#include "store/report_reader.h"

namespace gpuscope::evaluate {

struct EvaluationSummary {
  std::size_t kernels = 0;            // measured kernels evaluated
  std::size_t failed = 0;             // measured kernels whose data could not be evaluated
  std::vector<std::string> problems;  // one line each: "kernel <index> (<name>): <why>"
  // Why the report could not take the results (EvaluateReport: "cannot store the metrics in
  // <path>: <why> (...)"), which are shown from memory all the same; "" when they were stored.
  std::string not_stored;
};

struct CounterValues {
  // profiled_kernels.id -> a value (nullopt: CUPTI could not evaluate it) and unit for each
  // of the names asked for, in their order. A kernel that failed has no entry: its earlier
  // values, if any, stay.
  std::map<std::int64_t, std::vector<store::StoredMetric>> metrics;
  EvaluationSummary summary;
};

// Evaluates `metric_names` from the counter data of every measured kernel of `kernels` (as
// LoadKernelProfiles read them from `report`). A kernel that cannot be evaluated (a chip
// CUPTI does not know, damaged counter data) is a problem of the summary, not an error.
CounterValues EvaluateCounterData(const store::ReportReader& report,
                                  const std::vector<analysis::metrics::KernelProfile>& kernels,
                                  const std::vector<std::string>& metric_names, MetricHosts& hosts);

}  // namespace gpuscope::evaluate
