// nvprof's summary mode computed from reports: the report loop that feeds the builder
// (summary_builder.h). render/nvprof_summary_format.h prints the result.
#pragma once

#include "analysis/report_checks.h"
#include "analysis/summary_builder.h"
#include "util/status.h"

namespace gpuscope::analysis {

// What the summary covers (nvprof --print-gpu-summary / --print-api-summary ask for one
// section) and how kernels are named.
struct SummaryRequest {
  bool demangle = true;  // false: kernels grouped and named by their mangled names
  bool gpu_activities = true;
  bool api_calls = true;
};

// Rows with equal names merge across reports. Only the tables a requested section needs
// are read.
StatusOr<NvprofSummary> SummarizeReports(const Reports& reports, const SummaryRequest& request);

}  // namespace gpuscope::analysis
