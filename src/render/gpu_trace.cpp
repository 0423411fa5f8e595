// WriteGpuTrace: the kernel, memcpy and memset streams of every report, merged into one
// start order (spill_merge.h explains how, with bounded memory).
#include "render/gpu_trace.h"

#include <cstdint>
#include <vector>

#include "analysis/name_groups.h"
#include "analysis/report_checks.h"
#include "analysis/spill_merge.h"
#include "render/device_labels.h"
#include "render/gpu_trace_format.h"
#include "render/trace_origin.h"

namespace gpuscope::render {

using analysis::CheckReports;
using analysis::LargestStream;
using analysis::MergeStartOrdered;
using analysis::NameGroups;
using analysis::Reports;

namespace {

struct GpuStream {
  std::uint32_t report;
  GpuActivity activity;
};

// Hands the rows of one stream, as trace rows, to `sink` (false stops). Kernel names are
// grouped into `names`, whose id cache is per report.
template <typename Sink>
Status ForEachTraceRow(const store::ReportReader& report, const GpuStream& stream, bool demangle,
                       NameGroups& names, Sink&& sink) {
  switch (stream.activity) {
    case GpuActivity::kKernel:
      names.BeginReport();
      return report.ForEachKernel([&](const store::KernelRow& row) {
        std::string_view name = demangle ? row.demangled_name : row.record.mangled_name;
        auto group = static_cast<std::uint32_t>(names.GroupForId(row.name_id, name));
        return sink(KernelTraceRow(row.record, group, stream.report));
      });
    case GpuActivity::kMemcpy:
      return report.ForEachMemcpy([&](const model::MemcpyRecord& record) {
        return sink(MemcpyTraceRow(record, stream.report));
      });
    case GpuActivity::kMemset:
      break;
  }
  return report.ForEachMemset([&](const model::MemsetRecord& record) {
    return sink(MemsetTraceRow(record, stream.report));
  });
}

const char* TableOf(GpuActivity activity) {
  switch (activity) {
    case GpuActivity::kKernel:
      return "kernels";
    case GpuActivity::kMemcpy:
      return "memcpys";
    case GpuActivity::kMemset:
      break;
  }
  return "memsets";
}

// The stream with the most rows drives the merge (see spill_merge.h).
std::size_t ChooseDriver(const Reports& reports, const std::vector<GpuStream>& streams) {
  return LargestStream(streams.size(), [&](std::size_t i) {
    return reports[streams[i].report]->CountRows(TableOf(streams[i].activity));
  });
}

}  // namespace

Status WriteGpuTrace(const Reports& reports, const OutputOptions& options, std::ostream& out) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
  std::vector<GpuStream> streams;
  for (std::uint32_t report = 0; report < reports.size(); ++report) {
    for (GpuActivity activity :
         {GpuActivity::kKernel, GpuActivity::kMemcpy, GpuActivity::kMemset}) {
      streams.push_back({report, activity});
    }
  }
  NameGroups names;
  DeviceLabels devices(reports);
  GpuTraceFormatter formatter(options, &names, &devices);
  formatter.WriteHeader(out);
  GPUSCOPE_RETURN_IF_ERROR(MergeStartOrdered<GpuTraceRow>(
      streams.size(), ChooseDriver(reports, streams), TraceOrigin(reports),
      [&](std::size_t index, auto&& sink) {
        const GpuStream& stream = streams[index];
        return ForEachTraceRow(*reports[stream.report], stream, options.demangle, names, sink);
      },
      [&](const GpuTraceRow& row, std::uint64_t base) { formatter.WriteRow(row, base, out); }));
  formatter.WriteFooter(out);
  return Status();
}

}  // namespace gpuscope::render
