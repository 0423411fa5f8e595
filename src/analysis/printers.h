// What the CLI prints from reports: nvprof's summary and trace layouts, and nsys-style
// statistics tables. Every function takes one or more reports (one per process or rank)
// and aggregates them; rows come out sorted the way the tools users know sort them.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis {

enum class TimeUnit { kAuto, kSeconds, kMilliseconds, kMicroseconds, kNanoseconds };

// "auto", "s", "ms", "us", "ns" (nvprof's -u/--normalized-time-unit).
StatusOr<TimeUnit> ParseTimeUnit(std::string_view text);

struct OutputOptions {
  bool csv = false;
  TimeUnit unit = TimeUnit::kAuto;
  bool demangle = true;  // false: mangled kernel names (nvprof --demangling off)
};

using Reports = std::vector<const store::ReportReader*>;

// nvprof summary mode: "GPU activities" (kernels, [CUDA memcpy XtoY], [CUDA memset]) and
// "API calls" (runtime calls and driver calls not made from inside a runtime call).
// Starts at the column header line; the caller prints the "==PID== ..." lines around it.
Status WriteNvprofSummary(const Reports& reports, const OutputOptions& options, std::ostream& out);

// nvprof --print-gpu-trace: one row per kernel, copy and memset, in start order.
Status WriteGpuTrace(const Reports& reports, const OutputOptions& options, std::ostream& out);

// nvprof --print-api-trace: one row per API call, in start order.
Status WriteApiTrace(const Reports& reports, const OutputOptions& options, std::ostream& out);

// One line per kind of loss in the report (dropped records, records without timestamps,
// unfinished NVTX ranges); empty when nothing was lost.
std::vector<std::string> CollectionWarnings(const store::ReportReader& report);

enum class StatsFormat { kColumn, kCsv, kJson };
StatusOr<StatsFormat> ParseStatsFormat(std::string_view text);

// cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum.
const std::vector<std::string>& StatsReportNames();

// One nsys-style table (with Med and StdDev); an unknown name is an error listing the
// known ones.
Status WriteStatsReport(std::string_view name, const Reports& reports, StatsFormat format,
                        std::ostream& out);

}  // namespace gpuscope::analysis
