// nvprof's --print-gpu-trace, streamed from reports.
#pragma once

#include <ostream>

#include "analysis/report_checks.h"
#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::render {

// nvprof --print-gpu-trace: one row per kernel, copy and memset of every report, in one
// start order, Start relative to the profiling start (the earliest tracing start of the
// reports, also the API trace's); nvprof's footnotes follow the text table. A kernel's
// name ends with its correlation id ("add(int, int, int*) [118]"); CSV
// has it in a Correlation_ID column. Rows without timestamps come first, with "-" times.
// Streams: memory stays bounded however many rows (streams other than the largest are
// buffered in a temporary file while they are merged).
Status WriteGpuTrace(const analysis::Reports& reports, const OutputOptions& options,
                     std::ostream& out);

}  // namespace gpuscope::render
