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

// Time columns: with kAuto each value gets the unit that puts it in [1, 1000) (nvprof's
// 5 significant digits, "9.3230us", "704ns"). With a fixed unit (-u) every time is written
// in that unit at nanosecond resolution with its suffix ("0.165860000s", "3.424us"), and
// the columns widen to fit. CSV always uses one unit for every time cell, named in the
// units row: the fixed unit, or microseconds for kAuto (nvprof's CSV does the same).
struct OutputOptions {
  bool csv = false;
  TimeUnit unit = TimeUnit::kAuto;
  bool demangle = true;  // false: mangled kernel names (nvprof --demangling off)
  // The summary's sections (nvprof --print-gpu-summary / --print-api-summary print one).
  bool gpu_activities = true;
  bool api_calls = true;
};

using Reports = std::vector<const store::ReportReader*>;

// nvprof summary mode: "GPU activities" (kernels, [CUDA memcpy XtoY], [CUDA memset]) and
// "API calls" (runtime calls and driver calls not made from inside a runtime call).
// Starts at the column header line; the caller prints the "==PID== ..." lines around it.
// Rows with equal names merge across reports; activities without timestamps are left out
// (CollectionWarnings counts them). When no requested section has a row, one line says so
// ("No kernels, memory copies, memsets or API calls were profiled."); CSV then prints only
// its header and units rows.
Status WriteNvprofSummary(const Reports& reports, const OutputOptions& options, std::ostream& out);

// nvprof --print-gpu-trace: one row per kernel, copy and memset of every report, in one
// start order, Start relative to the profiling start (the earliest tracing start of the
// reports, also the API trace's); nvprof's footnotes follow the text table. A kernel's
// name ends with its correlation id ("add(int, int, int*) [118]"); CSV
// has it in a Correlation_ID column. Rows without timestamps come first, with "-" times.
// Streams: memory stays bounded however many rows (streams other than the largest are
// buffered in a temporary file while they are merged).
Status WriteGpuTrace(const Reports& reports, const OutputOptions& options, std::ostream& out);

// nvprof --print-api-trace: Start, Duration, Name for the summary's selection of API calls
// (nested driver calls left out), every report merged into one start order; CSV adds
// Correlation_ID. Streams like WriteGpuTrace.
Status WriteApiTrace(const Reports& reports, const OutputOptions& options, std::ostream& out);

// One line per kind of loss in the report (dropped records, records without timestamps,
// unfinished NVTX ranges, unknown record kinds, records the writer could not store) and,
// for a report that was not finalized, how far its data goes; empty when nothing was lost.
std::vector<std::string> CollectionWarnings(const store::ReportReader& report);

enum class StatsFormat { kColumn, kCsv, kJson };
StatusOr<StatsFormat> ParseStatsFormat(std::string_view text);

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

}  // namespace gpuscope::analysis
