#include "render/gpu_trace_format.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

#include "analysis/activity_names.h"
#include "analysis/duration_stats.h"
#include "util/units.h"
#include "render/escaping.h"
#include "render/word_wrap.h"

namespace gpuscope::render {

using analysis::GpuActivity;
using analysis::GpuActivityKind;
using analysis::HasTimestamps;
using analysis::kMemsetName;
using analysis::MemoryKindName;
using analysis::NameGroups;
using analysis::NvprofCopyName;

namespace {

// nvprof's column widths, separators included; Start/Duration widen for a fixed unit
// (nanosecond resolution needs up to 15 characters for an hour-long trace) and Device
// for long device names.
constexpr std::size_t kAutoStartWidth = 8;
constexpr std::size_t kAutoDurationWidth = 10;
constexpr std::size_t kFixedTimeWidth = 16;
constexpr std::size_t kGridWidth = 21;
constexpr std::size_t kBlockWidth = 16;
constexpr std::size_t kNumberWidth = 10;  // Regs*, SSMem*, DSMem*, Size, Context, Stream
constexpr std::size_t kWordWidth = 12;    // Throughput, SrcMemType, DstMemType
constexpr std::size_t kMinDeviceWidth = 17;

std::string Dim3(const std::int32_t (&xyz)[3]) {
  std::string text = "(";
  text.append(std::to_string(xyz[0])).append(" ").append(std::to_string(xyz[1]));
  text.append(" ").append(std::to_string(xyz[2])).append(")");
  return text;
}

// Shared memory sizes are signed in CUPTI's records; a negative one is corrupt.
std::uint64_t SharedBytes(std::int32_t bytes) {
  return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 0;
}

// nvprof's SrcMemType column: a copy's source, a memset's memory (which it writes to).
model::MemoryKind SrcMemType(const GpuActivity& row) {
  return row.kind == GpuActivityKind::kMemset ? row.dst_kind : row.src_kind;
}

std::string CsvNumber(double value) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%f", value);
  return buffer;
}

}  // namespace

GpuTraceFormatter::GpuTraceFormatter(const OutputOptions& options, const NameGroups* kernel_names,
                                     DeviceLabels* devices)
    : options_(options), kernel_names_(kernel_names), devices_(devices) {
  bool fixed = options.unit != TimeUnit::kAuto;
  start_width_ = fixed ? kFixedTimeWidth : kAutoStartWidth;
  duration_width_ = fixed ? kFixedTimeWidth : kAutoDurationWidth;
  device_width_ = std::max(kMinDeviceWidth, devices->widest() + 2);
}

std::string GpuTraceFormatter::RowName(const GpuActivity& row) const {
  switch (row.kind) {
    case GpuActivityKind::kKernel:
      return kernel_names_->name(row.name_group);
    case GpuActivityKind::kMemcpy:
      return std::string(NvprofCopyName(row.copy_kind));
    case GpuActivityKind::kMemset:
      break;
  }
  return std::string(kMemsetName);
}

void GpuTraceFormatter::WriteHeader(std::ostream& out) {
  if (options_.csv) {
    TimeUnit unit = CsvTimeUnit(options_.unit);
    std::string suffix(TimeUnitSuffix(unit));
    out << "\"Start\",\"Duration\",\"Grid X\",\"Grid Y\",\"Grid Z\",\"Block X\",\"Block Y\","
           "\"Block Z\",\"Registers Per Thread\",\"Static SMem\",\"Dynamic SMem\",\"Size\","
           "\"Throughput\",\"SrcMemType\",\"DstMemType\",\"Device\",\"Context\",\"Stream\","
           "\"Name\",\"Correlation_ID\"\n";
    out << suffix << ',' << suffix << ",,,,,,,,KB,KB,KB,GB/s,,,,,,,\n";
    return;
  }
  line_.clear();
  AppendRight(line_, "Start", start_width_);
  AppendRight(line_, "Duration", duration_width_);
  AppendRight(line_, "Grid Size", kGridWidth);
  AppendRight(line_, "Block Size", kBlockWidth);
  AppendRight(line_, "Regs*", kNumberWidth);
  AppendRight(line_, "SSMem*", kNumberWidth);
  AppendRight(line_, "DSMem*", kNumberWidth);
  AppendRight(line_, "Size", kNumberWidth);
  AppendRight(line_, "Throughput", kWordWidth);
  AppendRight(line_, "SrcMemType", kWordWidth);
  AppendRight(line_, "DstMemType", kWordWidth);
  AppendRight(line_, "Device", device_width_);
  AppendRight(line_, "Context", kNumberWidth);
  AppendRight(line_, "Stream", kNumberWidth);
  line_.append("  Name\n");
  out << line_;
}

void GpuTraceFormatter::WriteRow(const GpuActivity& row, std::uint64_t base, std::ostream& out) {
  if (options_.csv) {
    WriteCsvRow(row, base, out);
  } else {
    WriteTextRow(row, base, out);
  }
}

void GpuTraceFormatter::WriteTextRow(const GpuActivity& row, std::uint64_t base,
                                     std::ostream& out) {
  bool timed = HasTimestamps(row.start, row.end);
  std::uint64_t duration = timed ? row.end - row.start : 0;
  bool kernel = row.kind == GpuActivityKind::kKernel;
  line_.clear();
  // A start before the base can only come from a corrupt report: shown as 0, not wrapped.
  double since_base = timed && row.start > base ? static_cast<double>(row.start - base) : 0;
  AppendRight(line_, timed ? FormatTime(since_base, options_.unit) : "-", start_width_);
  AppendRight(line_, timed ? FormatTime(static_cast<double>(duration), options_.unit) : "-",
              duration_width_);
  AppendRight(line_, kernel ? Dim3(row.grid) : "-", kGridWidth);
  AppendRight(line_, kernel ? Dim3(row.block) : "-", kBlockWidth);
  AppendRight(line_, kernel ? std::to_string(row.registers) : "-", kNumberWidth);
  AppendRight(line_, kernel ? FormatBytes(SharedBytes(row.static_shared_memory)) : "-",
              kNumberWidth);
  AppendRight(line_, kernel ? FormatBytes(SharedBytes(row.dynamic_shared_memory)) : "-",
              kNumberWidth);
  AppendRight(line_, kernel ? "-" : FormatBytes(row.bytes), kNumberWidth);
  AppendRight(line_, kernel || !timed ? "-" : FormatThroughput(row.bytes, duration), kWordWidth);
  AppendRight(line_, kernel ? "-" : MemoryKindName(SrcMemType(row)), kWordWidth);
  AppendRight(line_, row.kind == GpuActivityKind::kMemcpy ? MemoryKindName(row.dst_kind) : "-",
              kWordWidth);
  AppendRight(line_, devices_->Label(row.report, row.device_id), device_width_);
  AppendRight(line_, std::to_string(row.context_id), kNumberWidth);
  AppendRight(line_, std::to_string(row.stream_id), kNumberWidth);
  line_.append("  ");
  line_.append(TerminalText(RowName(row)));  // the program's text: no raw escapes
  if (kernel) {
    // nvprof names a kernel launch by its correlation id, which joins it to its API call.
    line_.append(" [").append(std::to_string(row.correlation_id)).append("]");
  }
  line_.push_back('\n');
  out << line_;
}

void GpuTraceFormatter::WriteCsvRow(const GpuActivity& row, std::uint64_t base, std::ostream& out) {
  bool timed = HasTimestamps(row.start, row.end);
  std::uint64_t duration = timed ? row.end - row.start : 0;
  bool kernel = row.kind == GpuActivityKind::kKernel;
  line_.clear();
  if (timed) {
    double since_base = row.start > base ? static_cast<double>(row.start - base) : 0;
    line_.append(FormatCsvTime(since_base, options_.unit)).push_back(',');
    line_.append(FormatCsvTime(static_cast<double>(duration), options_.unit)).push_back(',');
  } else {
    line_.append(",,");
  }
  if (kernel) {
    for (std::int32_t value : row.grid) line_.append(std::to_string(value)).push_back(',');
    for (std::int32_t value : row.block) line_.append(std::to_string(value)).push_back(',');
    line_.append(std::to_string(row.registers)).push_back(',');
    line_.append(CsvNumber(SharedBytes(row.static_shared_memory) / 1024.0)).push_back(',');
    line_.append(CsvNumber(SharedBytes(row.dynamic_shared_memory) / 1024.0)).push_back(',');
    line_.append(",,,,");  // Size, Throughput, SrcMemType, DstMemType
  } else {
    line_.append(",,,,,,,,,");  // grid, block, registers, shared memory
    line_.append(CsvNumber(static_cast<double>(row.bytes) / 1024.0)).push_back(',');
    if (timed && duration > 0) {
      // GB/s as nvprof counts them (2^30 bytes).
      double gigabytes = static_cast<double>(row.bytes) / (1024.0 * 1024 * 1024);
      line_.append(CsvNumber(gigabytes / (static_cast<double>(duration) * 1e-9)));
    }
    line_.push_back(',');
    line_.append(CsvQuoted(MemoryKindName(SrcMemType(row)))).push_back(',');
    if (row.kind == GpuActivityKind::kMemcpy) line_.append(CsvQuoted(MemoryKindName(row.dst_kind)));
    line_.push_back(',');
  }
  line_.append(CsvQuoted(devices_->Label(row.report, row.device_id))).push_back(',');
  line_.append(CsvQuoted(std::to_string(row.context_id))).push_back(',');
  line_.append(CsvQuoted(std::to_string(row.stream_id))).push_back(',');
  line_.append(CsvQuoted(RowName(row))).push_back(',');
  line_.append(std::to_string(row.correlation_id)).push_back('\n');
  out << line_;
}

void GpuTraceFormatter::WriteFooter(std::ostream& out) {
  if (options_.csv) return;
  out << "\n"
         "Regs: Number of registers used per CUDA thread. This number includes registers used "
         "internally by the CUDA driver and/or tools and can be more than what the compiler "
         "shows.\n"
         "SSMem: Static shared memory allocated per CUDA block.\n"
         "DSMem: Dynamic shared memory allocated per CUDA block.\n"
         "SrcMemType: The type of source memory accessed by memory operation/copy\n"
         "DstMemType: The type of destination memory accessed by memory operation/copy\n";
}

}  // namespace gpuscope::render
