// SummarizeReports: the report loop. Reading feeds the builder; the builder aggregates.
#include "analysis/nvprof_summary_reports.h"

#include "analysis/report_feed.h"

namespace gpuscope::analysis {

StatusOr<NvprofSummary> SummarizeReports(const Reports& reports, const SummaryRequest& request) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  NvprofSummaryBuilder builder(request.demangle);
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    if (request.gpu_activities) {
      GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder));
      GPUSCOPE_RETURN_IF_ERROR(FeedCopiesAndMemsets(*report, builder));
    }
    if (request.api_calls) GPUSCOPE_RETURN_IF_ERROR(FeedApiCalls(*report, builder));
  }
  return builder.Build();
}

}  // namespace gpuscope::analysis
