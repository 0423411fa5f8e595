// nvprof's --print-api-trace layout: "Start  Duration  Name", one line per API call.
// ApiTraceRow is compact and owns no strings for the same reason as analysis::GpuActivity.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "analysis/name_groups.h"
#include "render/output_options.h"

namespace gpuscope::render {

struct ApiTraceRow {
  std::uint64_t start = 0;
  std::uint64_t end = 0;
  std::uint32_t name_group = 0;  // index into the trace's NameGroups
  std::uint32_t correlation_id = 0;
};

// Text: Start (relative to `base`, the profiling start: trace_origin.h), Duration, Name.
// CSV: "Start","Duration","Name","Correlation_ID", a units row, one row per call.
class ApiTraceFormatter {
 public:
  ApiTraceFormatter(const OutputOptions& options, const analysis::NameGroups* names);

  void WriteHeader(std::ostream& out);
  void WriteRow(const ApiTraceRow& row, std::uint64_t base, std::ostream& out);

 private:
  OutputOptions options_;
  const analysis::NameGroups* names_;
  std::size_t start_width_;
  std::size_t duration_width_;
  std::string line_;
};

}  // namespace gpuscope::render
