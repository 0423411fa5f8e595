// WriteStatsReport: picks the table, reads only what it needs from every report, prints.
#include "render/stats_report.h"

#include <array>
#include <functional>
#include <string>

#include "analysis/stats_builders.h"
#include "analysis/stats_table.h"
#include "render/report_checks.h"

namespace gpuscope::render {

using analysis::ApiSumBuilder;
using analysis::KernelSumBuilder;
using analysis::MemOpsBuilder;
using analysis::NvtxSumBuilder;
using analysis::StatsTable;

namespace {

StatusOr<StatsTable> KernelSum(const Reports& reports) {
  KernelSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachKernel([&](const store::KernelRow& row) {
      builder.AddKernel(row);
      return true;
    }));
  }
  return builder.Build();
}

StatusOr<StatsTable> ApiSum(const Reports& reports) {
  ApiSumBuilder builder;
  for (const store::ReportReader* report : reports) {
    builder.BeginReport();
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachApiCall([&](const store::ApiCallRow& row) {
      builder.AddApiCall(row);
      return true;
    }));
  }
  return builder.Build();
}

StatusOr<MemOpsBuilder> ReadMemOps(const Reports& reports) {
  MemOpsBuilder builder;
  for (const store::ReportReader* report : reports) {
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemcpy([&](const model::MemcpyRecord& record) {
      builder.AddMemcpy(record);
      return true;
    }));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachMemset([&](const model::MemsetRecord& record) {
      builder.AddMemset(record);
      return true;
    }));
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

// nsys's default order for the CUDA and NVTX reports.
constexpr std::array<StatsReport, 5> kStatsReports = {{
    {"cuda_gpu_kern_sum", KernelSum},
    {"cuda_api_sum", ApiSum},
    {"cuda_gpu_mem_time_sum", MemTimeSum},
    {"cuda_gpu_mem_size_sum", MemSizeSum},
    {"nvtx_sum", NvtxSum},
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

Status WriteStatsReport(std::string_view name, const Reports& reports, StatsFormat format,
                        std::ostream& out) {
  for (const StatsReport& report : kStatsReports) {
    if (name != report.name) continue;
    GPUSCOPE_RETURN_IF_ERROR(CheckReports(reports));
    StatusOr<StatsTable> table = report.build(reports);
    if (!table.ok()) return table.status();
    WriteStatsTable(*table, format, out);
    return Status();
  }
  return Status::Error("unknown report '" + std::string(name) +
                       "' (known reports: " + KnownNames() + ")");
}

}  // namespace gpuscope::render
