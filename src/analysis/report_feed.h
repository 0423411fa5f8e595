// The loops that hand a report's rows to a builder (summary_builder.h, stats_builders.h):
// one per table, shared by the nvprof summary and the nsys statistics reports, so that every
// summary reads a table the same way.
#pragma once

#include "model/records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis {

// Builder::AddKernel(const store::KernelRow&) for every kernel of the report.
template <typename Builder>
Status FeedKernels(const store::ReportReader& report, Builder& builder) {
  return report.ForEachKernel([&](const store::KernelRow& row) {
    builder.AddKernel(row);
    return true;
  });
}

// Builder::AddMemcpy and Builder::AddMemset for every copy, then every memset.
template <typename Builder>
Status FeedCopiesAndMemsets(const store::ReportReader& report, Builder& builder) {
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachMemcpy([&](const model::MemcpyRecord& record) {
    builder.AddMemcpy(record);
    return true;
  }));
  return report.ForEachMemset([&](const model::MemsetRecord& record) {
    builder.AddMemset(record);
    return true;
  });
}

// Builder::AddApiCall(const store::ApiCallRow&) for every API call of the report.
template <typename Builder>
Status FeedApiCalls(const store::ReportReader& report, Builder& builder) {
  return report.ForEachApiCall([&](const store::ApiCallRow& row) {
    builder.AddApiCall(row);
    return true;
  });
}

}  // namespace gpuscope::analysis
