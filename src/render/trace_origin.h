// The time both traces measure Start from. nvprof measures from the start of profiling, so
// with --print-gpu-trace and --print-api-trace together a kernel starts after the call
// that launched it; measuring each trace from its own earliest row would put both at 0.
// Header-only: shared by gpu_trace.cpp and api_trace.cpp.
#pragma once

#include <cstdint>

#include "analysis/report_checks.h"
#include "store/report_reader.h"

namespace gpuscope::render {

// The earliest tracing start (ProcessInfo::start) of the reports; UINT64_MAX when none
// recorded one, and the merge then measures from the earliest row instead.
inline std::uint64_t TraceOrigin(const analysis::Reports& reports) {
  std::uint64_t origin = UINT64_MAX;
  for (const store::ReportReader* report : reports) {
    std::uint64_t start = report != nullptr ? report->process().start : 0;
    if (start != 0 && start < origin) origin = start;
  }
  return origin;
}

}  // namespace gpuscope::render
