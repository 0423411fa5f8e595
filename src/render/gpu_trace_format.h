// nvprof's --print-gpu-trace layout: one line per kernel, copy and memset
// (analysis::GpuActivity, a kernel's name given by its NameGroups index).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "analysis/gpu_activity.h"
#include "analysis/name_groups.h"
#include "model/records.h"
#include "render/device_labels.h"
#include "render/output_options.h"

namespace gpuscope::render {

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
  void WriteRow(const analysis::GpuActivity& row, std::uint64_t base, std::ostream& out);
  void WriteFooter(std::ostream& out);

 private:
  void WriteTextRow(const analysis::GpuActivity& row, std::uint64_t base, std::ostream& out);
  void WriteCsvRow(const analysis::GpuActivity& row, std::uint64_t base, std::ostream& out);
  std::string RowName(const analysis::GpuActivity& row) const;

  OutputOptions options_;
  const analysis::NameGroups* kernel_names_;
  DeviceLabels* devices_;
  std::size_t start_width_;
  std::size_t duration_width_;
  std::size_t device_width_;
  std::string line_;  // reused for every row: no allocation per row once it has grown
};

}  // namespace gpuscope::render
