// WriteApiTrace: the API calls of every report (the summary's selection: runtime calls and
// driver calls not made inside a runtime call), merged into one start order.
#include "render/api_trace.h"

#include <cstdint>

#include "analysis/name_groups.h"
#include "analysis/report_checks.h"
#include "analysis/spill_merge.h"
#include "analysis/summary_builder.h"
#include "render/api_trace_format.h"
#include "render/trace_origin.h"

namespace gpuscope::render {

using analysis::CheckReports;
using analysis::IsSummarizedApiCall;
using analysis::LargestStream;
using analysis::MergeStartOrdered;
using analysis::NameGroups;
using analysis::Reports;

namespace {

template <typename Sink>
Status ForEachTraceRow(const store::ReportReader& report, NameGroups& names, Sink&& sink) {
  names.BeginReport();
  return report.ForEachApiCall([&](const store::ApiCallRow& row) {
    if (!IsSummarizedApiCall(row)) return true;
    ApiTraceRow trace_row;
    trace_row.start = row.record.start;
    trace_row.end = row.record.end;
    trace_row.correlation_id = row.record.correlation_id;
    trace_row.name_group =
        static_cast<std::uint32_t>(names.GroupForId(row.name_id, row.record.name));
    return sink(trace_row);
  });
}

// The report with the most calls drives the merge (see spill_merge.h).
std::size_t ChooseDriver(const Reports& reports) {
  return LargestStream(reports.size(),
                       [&](std::size_t i) { return reports[i]->CountRows("api_calls"); });
}

}  // namespace

Status WriteApiTrace(const Reports& reports, const OutputOptions& options, std::ostream& out) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  NameGroups names;
  ApiTraceFormatter formatter(options, &names);
  formatter.WriteHeader(out);
  return MergeStartOrdered<ApiTraceRow>(
      reports.size(), ChooseDriver(reports), TraceOrigin(reports),
      [&](std::size_t index, auto&& sink) { return ForEachTraceRow(*reports[index], names, sink); },
      [&](const ApiTraceRow& row, std::uint64_t base) { formatter.WriteRow(row, base, out); });
}

}  // namespace gpuscope::render
