#include "render/nvprof_summary.h"

#include "analysis/nvprof_summary_reports.h"
#include "render/nvprof_summary_format.h"

namespace gpuscope::render {

Status WriteNvprofSummary(const analysis::Reports& reports, const OutputOptions& options,
                          std::ostream& out) {
  StatusOr<analysis::NvprofSummary> summary = analysis::SummarizeReports(
      reports, {.demangle = options.demangle,
                .gpu_activities = options.gpu_activities,
                .api_calls = options.api_calls});
  if (!summary.ok()) return summary.status();
  FormatNvprofSummary(*summary, options, out);
  return {};
}

}  // namespace gpuscope::render
