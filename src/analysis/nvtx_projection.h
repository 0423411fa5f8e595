// NVTX ranges projected onto the GPU: nsys's nvtx_kern_sum ("NVTX Range Kernel Summary")
// and nvtx_gpu_proj_sum ("NVTX GPU Projection Summary"). Their columns, in order and units,
// are those the Nsight Systems Analysis Guide lists ("Statistical Reports Shipped With Nsight
// Systems") and `nsys stats` prints; ranges are named "domain:name" (":name" in the default
// domain) as nsys names them (analysis::NsysRangeLabel). Pinned by
// tests/analysis/nsys_column_sets_test.cpp.
//
// A GPU operation (kernel, copy, memset) belongs to a range when the CUDA API call that
// launched it (matched by correlation id) started on the range's thread between the range's
// start and end; it belongs to every enclosing range, so nested ranges each count it. A
// range's projection onto the GPU runs from the start of its first operation to the end of
// its last; ranges that launched nothing have none and are left out. Correlation ids are
// per process, so each report is projected alone and the results are aggregated.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis {

// Per range name, style, process, thread and kernel name: the range instances that launched
// the kernel, the kernel's launches and statistics of their GPU durations.
StatusOr<StatsTable> BuildNvtxKernelSum(const Reports& reports);

// Per range name and style: projected GPU time (statistics over the instances that launched
// GPU work), the ranges' own time, GPU operations, average nesting level (0: outermost on
// its thread) and average number of direct child ranges.
StatusOr<StatsTable> BuildNvtxGpuProjectionSum(const Reports& reports);

// Per range label ("name", or "domain:name" as in nvtx_sum), the projected GPU time in ns of
// each instance that launched GPU work, in the report's order: what `gpuscope diff` compares
// between two reports (the spread of the instances is the range's run-to-run noise).
StatusOr<std::map<std::string, std::vector<double>>> ProjectedGpuTimeByRange(
    const store::ReportReader& report);

}  // namespace gpuscope::analysis
