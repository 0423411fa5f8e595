// Chrome Trace Event Format export (`gpuscope export --format chrome`): the JSON that the
// Perfetto UI and chrome://tracing open.
//
// Layout: each report (traced process) is one trace process with a thread per host thread
// (API calls, NVTX push/pop ranges and marks nested on it; NVTX start/end ranges, which may
// cross threads, as async slices); each GPU of a report is one more trace process with a
// "thread" per stream (kernels, copies, memsets) and a "Device memory" counter built from
// the allocation and free records. Flow arrows (s -> f, "bp":"e", id = correlation id)
// link each API call to the GPU work it started.
//
// Times: "ts"/"dur" are microseconds with three decimals (exact nanoseconds), relative to
// the earliest report start, which "otherData" records as absolute ns (CUPTI's clock in
// microseconds would need more digits than a double holds).
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

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::exporter {

struct ChromeTraceStats {
  std::uint64_t events = 0;           // trace events written (metadata included)
  std::uint64_t skipped_untimed = 0;  // rows without timestamps, or unfinished ranges
};

StatusOr<ChromeTraceStats> WriteChromeTrace(std::span<const store::ReportReader* const> reports,
                                            std::ostream& out);

}  // namespace gpuscope::exporter
