// WriteNvprofSummary: the report loop. Reading feeds the builder; the builder aggregates;
// the formatter prints. Only the tables a requested section needs are read.
#include "render/nvprof_summary.h"

#include "analysis/summary_builder.h"
#include "render/nvprof_summary_format.h"
#include "render/report_checks.h"

namespace gpuscope::render {

using analysis::NvprofSummaryBuilder;

Status WriteNvprofSummary(const Reports& reports, const OutputOptions& options, std::ostream& out) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  NvprofSummaryBuilder builder(options.demangle);
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    if (options.gpu_activities) {
      GPUSCOPE_RETURN_IF_ERROR(report->ForEachKernel([&](const store::KernelRow& row) {
        builder.AddKernel(row);
        return true;
      }));
      GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemcpy([&](const model::MemcpyRecord& record) {
        builder.AddMemcpy(record);
        return true;
      }));
      GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemset([&](const model::MemsetRecord& record) {
        builder.AddMemset(record);
        return true;
      }));
    }
    if (options.api_calls) {
      GPUSCOPE_RETURN_IF_ERROR(report->ForEachApiCall([&](const store::ApiCallRow& row) {
        builder.AddApiCall(row);
        return true;
      }));
    }
  }
  FormatNvprofSummary(builder.Build(), options, out);
  return Status();
}

}  // namespace gpuscope::render
