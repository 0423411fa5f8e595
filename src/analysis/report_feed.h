// The loops that hand a report's rows to a builder (summary_builder.h, stats_builders.h):
// one per table, shared by the nvprof summary and the nsys statistics reports, so that every
// summary reads a table the same way.
#pragma once

#include "analysis/time_window.h"
#include "model/records.h"
#include "store/report_reader.h"
#include "store/trace_scope_rows.h"
#include "util/status.h"

namespace gpuscope::analysis {

// Each feed hands over the rows that overlap `window` (time_window.h; all rows by default).

// Builder::AddKernel(const store::KernelRow&) for every kernel of the report.
template <typename Builder>
Status FeedKernels(const store::ReportReader& report, Builder& builder,
                   const TimeWindow& window = {}) {
  return report.ForEachKernel([&](const store::KernelRow& row) {
    if (window.Overlaps(row.record.start, row.record.end)) builder.AddKernel(row);
    return true;
  });
}

// Builder::AddMemcpy and Builder::AddMemset for every copy, then every memset.
template <typename Builder>
Status FeedCopiesAndMemsets(const store::ReportReader& report, Builder& builder,
                            const TimeWindow& window = {}) {
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachMemcpy([&](const model::MemcpyRecord& record) {
    if (window.Overlaps(record.start, record.end)) builder.AddMemcpy(record);
    return true;
  }));
  return report.ForEachMemset([&](const model::MemsetRecord& record) {
    if (window.Overlaps(record.start, record.end)) builder.AddMemset(record);
    return true;
  });
}

// Builder::AddApiCall(const store::ApiCallRow&) for every API call of the report.
template <typename Builder>
Status FeedApiCalls(const store::ReportReader& report, Builder& builder,
                    const TimeWindow& window = {}) {
  return report.ForEachApiCall([&](const store::ApiCallRow& row) {
    if (window.Overlaps(row.record.start, row.record.end)) builder.AddApiCall(row);
    return true;
  });
}

// Builder::AddApiCallCount(const store::ApiCallCountRow&) for every row of api_call_counts
// (--api-capture callback's hot calls) whose calls overlap `window` (a row covers every call
// of its thread and function, so a window that cuts it keeps it whole).
template <typename Builder>
Status FeedApiCallCounts(const store::ReportReader& report, Builder& builder,
                         const TimeWindow& window = {}) {
  StatusOr<std::vector<store::ApiCallCountRow>> rows = store::ReadApiCallCounts(report);
  if (!rows.ok()) return rows.status();
  for (const store::ApiCallCountRow& row : *rows) {
    if (window.Overlaps(row.record.first_start, row.record.last_end)) builder.AddApiCallCount(row);
  }
  return Status();
}

}  // namespace gpuscope::analysis
