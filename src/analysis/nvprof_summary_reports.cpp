// SummarizeReports: the report loop. Reading feeds the builder; the builder aggregates.
#include "analysis/nvprof_summary_reports.h"

#include "analysis/report_feed.h"
#include "store/trace_scope_rows.h"

namespace gpuscope::analysis {

StatusOr<NvprofSummary> SummarizeReports(const Reports& reports, const SummaryRequest& request) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  NvprofSummaryBuilder builder(request.demangle);
  bool gpu_traced = false, api_traced = false;
  for (const store::ReportReader* report : reports) {
    StatusOr<store::RecordedScope> scope = store::ReadRecordedScope(*report);
    if (!scope.ok()) return scope.status();
    gpu_traced = gpu_traced || scope->TracedCudaGpu();
    api_traced = api_traced || scope->TracedCudaApi();
    builder.BeginReport();
    if (request.gpu_activities) {
      GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder));
      GPUSCOPE_RETURN_IF_ERROR(FeedCopiesAndMemsets(*report, builder));
    }
    if (request.api_calls) {
      GPUSCOPE_RETURN_IF_ERROR(FeedApiCalls(*report, builder));
      GPUSCOPE_RETURN_IF_ERROR(FeedApiCallCounts(*report, builder));
    }
  }
  NvprofSummary summary = builder.Build();
  summary.gpu_activities_traced = gpu_traced || reports.empty();
  summary.api_calls_traced = api_traced || reports.empty();
  return summary;
}

}  // namespace gpuscope::analysis
