// Chrome Trace Event Format export (`gpuscope export --format chrome`): the JSON that the
// Perfetto UI and chrome://tracing open.
//
// Layout: each report (traced process) is one trace process with a thread per host thread
// (API calls, NVTX push/pop ranges and marks nested on it; NVTX start/end ranges, which may
// cross threads, as async slices); each GPU of a report is one more trace process with a
// "thread" per stream (kernels, copies, memsets) and a "Device memory" counter built from
// the allocation and free records. Flow arrows (s -> f, "bp":"e", id = correlation id)
// link each API call to the GPU work it started. A kernel slice's args hold its launch
// configuration and, for a name whose mangled form differs from it (C++), "mangled_name": the
// format has no string table, so a name is never written twice in one event. Names are the
// reader's, shortened past 4 KiB (store/report_text.h).
//
// Times: "ts"/"dur" are microseconds with three decimals (exact nanoseconds), relative to
// the earliest report start, which "otherData" records as absolute ns (CUPTI's clock in
// microseconds would need more digits than a double holds). A damaged time further from that
// start than int64 nanoseconds hold is clamped to the axis's end (ChromeTraceStats).
//
// Several ranks of one job: when the reports carry ranks, each report's times are moved by
// its clock offset onto the reference rank's axis (analysis/ranks/clock_alignment.h), the
// processes are sorted by rank and named "rank N (host, pid)", and "otherData" lists every
// offset with its error and method ("clock_alignment").
//
// Memory: rows stream from the readers straight to `out`; only the sets of correlation ids
// (4 bytes per API call and GPU activity) are held, to emit flows only where both ends exist.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>

#include "analysis/value_range.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::exporter {

struct ChromeTraceStats {
  std::uint64_t events = 0;           // trace events written (metadata included)
  std::uint64_t skipped_untimed = 0;  // rows without timestamps, or unfinished ranges
  // Events with a time further from the trace's origin than 64 bits of nanoseconds hold
  // (damaged timestamps): written with it clamped to the axis's end, never wrapped around.
  std::uint64_t clamped_times = 0;
  // GPU metric sample values not written because they cannot be true
  // (analysis/gpu_metric_samples.h).
  analysis::ImpossibleValueCounts impossible_gpu_metric_values;
};

StatusOr<ChromeTraceStats> WriteChromeTrace(std::span<const store::ReportReader* const> reports,
                                            std::ostream& out);

}  // namespace gpuscope::exporter
