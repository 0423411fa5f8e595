// nvprof's --print-gpu-trace layout: one line per kernel, copy and memset.
//
// GpuTraceRow is the compact, self-contained form of one line (no strings: a kernel's
// name is a NameGroups index), so that rows can be spilled to a file while streams are
// merged (spill_merge.h) and formatted later.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "analysis/name_groups.h"
#include "model/records.h"
#include "render/device_labels.h"
#include "render/output_options.h"

namespace gpuscope::render {

enum class GpuActivity : std::uint8_t { kKernel, kMemcpy, kMemset };

struct GpuTraceRow {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint64_t bytes = 0;       // copies and memsets
  std::uint32_t name_group = 0;  // kernels: index into the trace's NameGroups
  std::uint32_t report = 0;      // index into the list of reports (for the device label)
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;
  std::int32_t grid[3] = {0, 0, 0};
  std::int32_t block[3] = {0, 0, 0};
  std::int32_t static_shared_memory = 0;
  std::int32_t dynamic_shared_memory = 0;
  std::uint16_t registers = 0;
  GpuActivity activity = GpuActivity::kKernel;
  model::CopyKind copy_kind = model::CopyKind::kUnknown;
  model::MemoryKind src_kind = model::MemoryKind::kUnknown;  // memsets: the memory set
  model::MemoryKind dst_kind = model::MemoryKind::kUnknown;
};

GpuTraceRow KernelTraceRow(const model::KernelRecord& kernel, std::uint32_t name_group,
                           std::uint32_t report);
GpuTraceRow MemcpyTraceRow(const model::MemcpyRecord& copy, std::uint32_t report);
GpuTraceRow MemsetTraceRow(const model::MemsetRecord& memset, std::uint32_t report);

// Writes the header, the rows and nvprof's footnotes, in text columns or CSV.
//
// Text: Start is relative to `base` (the profiling start: trace_origin.h); a row without
// timestamps shows "-" for Start, Duration and Throughput. A kernel's name is followed by
// its correlation id in brackets, as nvprof does ("add(int, int, int*) [118]").
// CSV: nvprof's "Start","Duration","Grid X",...,"Name","Correlation_ID" header, a units
// row, then one row per activity; empty cells where a column does not apply.
class GpuTraceFormatter {
 public:
  GpuTraceFormatter(const OutputOptions& options, const analysis::NameGroups* kernel_names,
                    DeviceLabels* devices);

  void WriteHeader(std::ostream& out);
  void WriteRow(const GpuTraceRow& row, std::uint64_t base, std::ostream& out);
  void WriteFooter(std::ostream& out);

 private:
  void WriteTextRow(const GpuTraceRow& row, std::uint64_t base, std::ostream& out);
  void WriteCsvRow(const GpuTraceRow& row, std::uint64_t base, std::ostream& out);
  std::string RowName(const GpuTraceRow& row) const;

  OutputOptions options_;
  const analysis::NameGroups* kernel_names_;
  DeviceLabels* devices_;
  std::size_t start_width_;
  std::size_t duration_width_;
  std::size_t device_width_;
  std::string line_;  // reused for every row: no allocation per row once it has grown
};

}  // namespace gpuscope::render
