// WriteGpuTrace: the kernel, memcpy and memset streams of every report, merged into one
// start order (spill_merge.h explains how, with bounded memory).
#include "render/gpu_trace.h"

#include <cstdint>
#include <vector>

#include "analysis/gpu_activity.h"
#include "analysis/name_groups.h"
#include "analysis/report_checks.h"
#include "analysis/spill_merge.h"
#include "render/device_labels.h"
#include "render/gpu_trace_format.h"
#include "render/trace_origin.h"

namespace gpuscope::render {

using analysis::ActivityTable;
using analysis::CheckReports;
using analysis::FromKernel;
using analysis::FromMemcpy;
using analysis::FromMemset;
using analysis::GpuActivity;
using analysis::GpuActivityKind;
using analysis::LargestStream;
using analysis::MergeStartOrdered;
using analysis::NameGroups;
using analysis::Reports;

namespace {

struct GpuStream {
  std::uint32_t report;
  GpuActivityKind kind;
};

// Hands the rows of one stream to `sink` (false stops). Kernel names are grouped into
// `names`, whose id cache is per report.
template <typename Sink>
Status ForEachTraceRow(const store::ReportReader& report, const GpuStream& stream, bool demangle,
                       NameGroups& names, Sink&& sink) {
  auto of_report = [&](GpuActivity row) {
    row.report = stream.report;
    return sink(row);
  };
  switch (stream.kind) {
    case GpuActivityKind::kKernel:
      names.BeginReport();
      return report.ForEachKernel([&](const store::KernelRow& row) {
        GpuActivity kernel = FromKernel(row.record);
        std::string_view name = demangle ? row.demangled_name : row.record.mangled_name;
        kernel.name_group = static_cast<std::uint32_t>(names.GroupForId(row.name_id, name));
        return of_report(kernel);
      });
    case GpuActivityKind::kMemcpy:
      return report.ForEachMemcpy(
          [&](const model::MemcpyRecord& record) { return of_report(FromMemcpy(record)); });
    case GpuActivityKind::kMemset:
      break;
  }
  return report.ForEachMemset(
      [&](const model::MemsetRecord& record) { return of_report(FromMemset(record)); });
}

// The stream with the most rows drives the merge (see spill_merge.h).
std::size_t ChooseDriver(const Reports& reports, const std::vector<GpuStream>& streams) {
  return LargestStream(streams.size(), [&](std::size_t i) {
    return reports[streams[i].report]->CountRows(ActivityTable(streams[i].kind));
  });
}

}  // namespace

Status WriteGpuTrace(const Reports& reports, const OutputOptions& options, std::ostream& out) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  std::vector<GpuStream> streams;
  for (std::uint32_t report = 0; report < reports.size(); ++report) {
    for (GpuActivityKind kind :
         {GpuActivityKind::kKernel, GpuActivityKind::kMemcpy, GpuActivityKind::kMemset}) {
      streams.push_back({report, kind});
    }
  }
  NameGroups names;
  DeviceLabels devices(reports);
  GpuTraceFormatter formatter(options, &names, &devices);
  formatter.WriteHeader(out);
  GPUSCOPE_RETURN_IF_ERROR(MergeStartOrdered<GpuActivity>(
      streams.size(), ChooseDriver(reports, streams), TraceOrigin(reports),
      [&](std::size_t index, auto&& sink) {
        const GpuStream& stream = streams[index];
        return ForEachTraceRow(*reports[stream.report], stream, options.demangle, names, sink);
      },
      [&](const GpuActivity& row, std::uint64_t base) { formatter.WriteRow(row, base, out); }));
  formatter.WriteFooter(out);
  return Status();
}

}  // namespace gpuscope::render
