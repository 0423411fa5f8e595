// BuildStatsReport: picks the table and reads only what it needs from every report.
#include "analysis/stats_reports.h"

#include <array>
#include <functional>
#include <string>

#include "analysis/nvtx_projection.h"
#include "analysis/report_feed.h"
#include "analysis/stats_builders.h"
#include "analysis/trace_tables.h"

namespace gpuscope::analysis {

namespace {

StatusOr<StatsTable> KernelSum(const Reports& reports) {
  KernelSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder));
  }
  return builder.Build();
}

StatusOr<StatsTable> KernelGridBlockSum(const Reports& reports) {
  KernelGridBlockSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(FeedKernels(*report, builder));
  }
  return builder.Build();
}

StatusOr<StatsTable> ApiSum(const Reports& reports) {
  ApiSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(FeedApiCalls(*report, builder));
  }
  return builder.Build();
}

StatusOr<MemOpsBuilder> ReadMemOps(const Reports& reports) {
  MemOpsBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(FeedCopiesAndMemsets(*report, builder));
  }
  return builder;
}

StatusOr<StatsTable> MemTimeSum(const Reports& reports) {
  StatusOr<MemOpsBuilder> builder = ReadMemOps(reports);
  if (!builder.ok()) return builder.status();
  return builder->BuildTimeTable();
}

StatusOr<StatsTable> MemSizeSum(const Reports& reports) {
  StatusOr<MemOpsBuilder> builder = ReadMemOps(reports);
  if (!builder.ok()) return builder.status();
  return builder->BuildSizeTable();
}

StatusOr<StatsTable> NvtxSum(const Reports& reports) {
  NvtxSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachNvtx([&](const model::NvtxRecord& record) {
      builder.AddNvtx(record);
      return true;
    }));
  }
  return builder.Build();
}

struct StatsReport {
  const char* name;
  StatusOr<StatsTable> (*build)(const Reports&);
};

// nsys's default order for the CUDA and NVTX reports, then the other reports it has.
constexpr std::array<StatsReport, 10> kStatsReports = {{
    {"cuda_gpu_kern_sum", KernelSum},
    {"cuda_api_sum", ApiSum},
    {"cuda_gpu_mem_time_sum", MemTimeSum},
    {"cuda_gpu_mem_size_sum", MemSizeSum},
    {"nvtx_sum", NvtxSum},
    {"cuda_gpu_kern_gb_sum", KernelGridBlockSum},
    {"nvtx_kern_sum", BuildNvtxKernelSum},
    {"nvtx_gpu_proj_sum", BuildNvtxGpuProjectionSum},
    {"cuda_gpu_trace", BuildGpuTraceTable},
    {"cuda_api_trace", BuildApiTraceTable},
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

const std::vector<std::string>& StatsReportNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const StatsReport& report : kStatsReports) list.emplace_back(report.name);
    return list;
  }();
  return names;
}

StatusOr<StatsTable> BuildStatsReport(std::string_view name, const Reports& reports) {
  for (const StatsReport& report : kStatsReports) {
    if (name != report.name) continue;
    GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
    return report.build(reports);
  }
  return Status::Error("unknown report '" + std::string(name) +
                       "' (known reports: " + KnownNames() + ")");
}

}  // namespace gpuscope::analysis
