// `gpuscope stats --report NAME`: nsys's statistics reports, built from reports and printed.
#pragma once

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "render/output_options.h"
#include "render/stats_table_format.h"
#include "util/status.h"

namespace gpuscope::render {

// cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum.
const std::vector<std::string>& StatsReportNames();

// One nsys-style table (with Med and StdDev, the sample standard deviation), aggregated
// over the reports: kernels by demangled name, API calls as in the nvprof summary, copies
// by kind ("[CUDA memcpy Host-to-Device]") and memsets, NVTX ranges by style and
// "domain:name". Column format is nsys's aligned table under " ** Title (name):", CSV a
// header row and rows, JSON an array of objects keyed by column name. An unknown name is
// an error listing the known ones.
Status WriteStatsReport(std::string_view name, const Reports& reports, StatsFormat format,
                        std::ostream& out);

}  // namespace gpuscope::render
