// nsys's statistics reports (`gpuscope stats --report NAME`) computed from reports: each name
// picks a builder (stats_builders.h) and the tables it reads. render/stats_report.h prints.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "analysis/time_window.h"
#include "util/status.h"

namespace gpuscope::analysis {

// cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum,
// cuda_gpu_kern_gb_sum, nvtx_kern_sum, nvtx_gpu_proj_sum (nvtx_projection.h), cuda_gpu_trace,
// cuda_api_trace (trace_tables.h), cuda_gpu_kern_callsite_sum (callsite_stats.h),
// gpu_metrics_sum (gpu_metrics_summary.h).
const std::vector<std::string>& StatsReportNames();

// One nsys-style table (with Med and StdDev, the sample standard deviation), aggregated
// over the reports: kernels by demangled name, API calls as in the nvprof summary, copies
// by kind ("[CUDA memcpy Host-to-Device]") and memsets, NVTX ranges by style and
// "domain:name". An unknown name is an error listing the known ones.
// With a `window`, the table counts the events that overlap it (time_window.h); only the
// tables of WindowedStatsReportNames() can be built over a window.
StatusOr<StatsTable> BuildStatsReport(std::string_view name, const Reports& reports,
                                      const TimeWindow& window = {});

// The tables that can be restricted to a time window: the summaries by name, size and
// configuration (the others follow rows across the whole report).
const std::vector<std::string>& WindowedStatsReportNames();

}  // namespace gpuscope::analysis
