// nsys's trace reports as tables (`gpuscope stats -r cuda_gpu_trace,cuda_api_trace`): one
// row per GPU operation or API call, every report merged into one start order, so that they
// print in the column, CSV and JSON forms of the other statistics tables. (nvprof's layouts
// of the same rows, streamed with bounded memory, are render/gpu_trace.h and api_trace.h;
// these tables are built whole, like every stats table.)
#pragma once

#include <cstdint>
#include <string_view>

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "util/status.h"

namespace gpuscope::analysis {

// The column sets are nsys's, in its order and units, as the Nsight Systems Analysis Guide
// ("Statistical Reports Shipped With Nsight Systems": cuda_gpu_trace, cuda_api_trace) lists
// them and as `nsys stats` prints them (headers "Start (ns)", "StcSMem (MB)", "Throughput
// (MB/s)", "GreenCtx" of current versions; pinned by tests/analysis/nsys_column_sets_test.cpp).
// Columns gpuscope does not record stay empty, so scripts that read nsys's CSV by header
// read ours: GreenCtx (green contexts), T-Pri and Thread Name (thread priority and name).
//
// cuda_gpu_trace: Start (ns, from the earliest report's tracing start), Duration, CorrId,
// grid, block, registers, static and dynamic shared memory (MB), bytes (MB) and throughput
// (MB/s) of copies and memsets, memory kinds, device, context, green context, stream and
// name. Cells that do not apply to a row (a kernel's bytes, a copy's grid) are empty.
// Untimed rows are left out (the report counts them).
StatusOr<StatsTable> BuildGpuTraceTable(const Reports& reports);

// cuda_api_trace: Start, Duration, Name, Result, CorrID, Pid, Tid, T-Pri, Thread Name of the
// API calls the summary counts (runtime calls and driver calls the runtime did not make).
StatusOr<StatsTable> BuildApiTraceTable(const Reports& reports);

// cuda_gpu_trace and cuda_api_trace, the tables whose rows grow with the reports' events.
bool IsTraceTable(std::string_view name);

// How much of a trace table BuildEarliestTraceRows kept.
struct TraceTableCut {
  std::uint64_t kept = 0;   // rows in the table
  std::uint64_t total = 0;  // rows the whole table has
};

// Trace table `name` (IsTraceTable) with its earliest `max_rows` rows only, in the table's
// order, and in `cut` how many of how many: what `gpuscope report` embeds. Memory follows
// `max_rows`, not the reports' size (the other rows are counted, never built).
StatusOr<StatsTable> BuildEarliestTraceRows(std::string_view name, const Reports& reports,
                                            std::uint64_t max_rows, TraceTableCut& cut);

}  // namespace gpuscope::analysis
