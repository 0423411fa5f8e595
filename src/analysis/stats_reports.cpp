// BuildStatsReport: picks the table and reads only what it needs from every report.
#include "analysis/stats_reports.h"

#include <array>
#include <functional>
#include <string>

#include "analysis/callsite_stats.h"
#include "analysis/gpu_metrics_summary.h"
#include "analysis/nvtx_projection.h"
#include "analysis/report_feed.h"
#include "analysis/stats_builders.h"
#include "analysis/trace_tables.h"

namespace gpuscope::analysis {

namespace {

StatusOr<StatsTable> KernelSum(const Reports& reports, const TimeWindow& window) {
  KernelSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder, window));
  }
  return builder.Build();
}

StatusOr<StatsTable> KernelGridBlockSum(const Reports& reports, const TimeWindow& window) {
  KernelGridBlockSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder, window));
  }
  return builder.Build();
}

StatusOr<StatsTable> ApiSum(const Reports& reports, const TimeWindow& window) {
  ApiSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(FeedApiCalls(*report, builder, window));
    GPUSCOPE_RETURN_IF_ERROR(FeedApiCallCounts(*report, builder, window));
  }
  return builder.Build();
}

StatusOr<MemOpsBuilder> ReadMemOps(const Reports& reports, const TimeWindow& window) {
  MemOpsBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(FeedCopiesAndMemsets(*report, builder, window));
  }
  return builder;
}

StatusOr<StatsTable> MemTimeSum(const Reports& reports, const TimeWindow& window) {
  StatusOr<MemOpsBuilder> builder = ReadMemOps(reports, window);
  if (!builder.ok()) return builder.status();
  return builder->BuildTimeTable();
}

StatusOr<StatsTable> MemSizeSum(const Reports& reports, const TimeWindow& window) {
  StatusOr<MemOpsBuilder> builder = ReadMemOps(reports, window);
  if (!builder.ok()) return builder.status();
  return builder->BuildSizeTable();
}

StatusOr<StatsTable> NvtxSum(const Reports& reports, const TimeWindow& window) {
  NvtxSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachNvtx([&](const model::NvtxRecord& record) {
      if (window.Overlaps(record.start, record.end)) builder.AddNvtx(record);
      return true;
    }));
  }
  return builder.Build();
}

struct StatsReport {
  const char* name;
  StatusOr<StatsTable> (*build)(const Reports&, const TimeWindow&);
};

// The tables that follow rows across a report (NVTX ranges to the work they launched, the
// traces) are built over whole reports only.
template <StatusOr<StatsTable> (*Build)(const Reports&)>
StatusOr<StatsTable> WholeReportsOnly(const Reports& reports, const TimeWindow& window) {
  if (!window.IsAll()) return Status::Error("this table is built over whole reports only");
  return Build(reports);
}

// nsys's default order for the CUDA and NVTX reports, then the other reports it has.
constexpr std::array<StatsReport, 12> kStatsReports = {{
    {"cuda_gpu_kern_sum", KernelSum},
    {"cuda_api_sum", ApiSum},
    {"cuda_gpu_mem_time_sum", MemTimeSum},
    {"cuda_gpu_mem_size_sum", MemSizeSum},
    {"nvtx_sum", NvtxSum},
    {"cuda_gpu_kern_gb_sum", KernelGridBlockSum},
    {"nvtx_kern_sum", WholeReportsOnly<BuildNvtxKernelSum>},
    {"nvtx_gpu_proj_sum", WholeReportsOnly<BuildNvtxGpuProjectionSum>},
    {"cuda_gpu_trace", WholeReportsOnly<BuildGpuTraceTable>},
    {"cuda_api_trace", WholeReportsOnly<BuildApiTraceTable>},
    {"cuda_gpu_kern_callsite_sum", WholeReportsOnly<BuildKernelCallSiteSum>},
    {"gpu_metrics_sum", WholeReportsOnly<BuildGpuMetricsSum>},
}};

std::string KnownNames() {
  std::string names;
  for (const StatsReport& report : kStatsReports) {
    names += names.empty() ? "" : ", ";
    names += report.name;
  }
  return names;
}

}  // namespace

const std::vector<std::string>& WindowedStatsReportNames() {
  static const std::vector<std::string> names = {
      "cuda_gpu_kern_sum",     "cuda_api_sum", "cuda_gpu_mem_time_sum",
      "cuda_gpu_mem_size_sum", "nvtx_sum",     "cuda_gpu_kern_gb_sum"};
  return names;
}

const std::vector<std::string>& StatsReportNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const StatsReport& report : kStatsReports) list.emplace_back(report.name);
    return list;
  }();
  return names;
}

StatusOr<StatsTable> BuildStatsReport(std::string_view name, const Reports& reports,
                                      const TimeWindow& window) {
  for (const StatsReport& report : kStatsReports) {
    if (name != report.name) continue;
    GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
    StatusOr<StatsTable> table = report.build(reports, window);
    if (!table.ok() && !window.IsAll()) {
      return Status::Error(std::string(name) + ": " + table.status().message());
    }
    return table;
  }
  return Status::Error("unknown report '" + std::string(name) +
                       "' (known reports: " + KnownNames() + ")");
}

}  // namespace gpuscope::analysis
