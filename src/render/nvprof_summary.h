// nvprof's summary mode, read from reports and printed.
#pragma once

#include <ostream>

#include "analysis/report_checks.h"
#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::render {

// nvprof summary mode: "GPU activities" (kernels, [CUDA memcpy XtoY], [CUDA memset]) and
// "API calls" (runtime calls and driver calls not made from inside a runtime call).
// Starts at the column header line; the caller prints the "==PID== ..." lines around it.
// Rows with equal names merge across reports; activities without timestamps are left out
// (CollectionWarnings counts them). When no requested section has a row, one line says so
// ("No kernels, memory copies, memsets or API calls were profiled."); CSV then prints only
// its header and units rows.
Status WriteNvprofSummary(const analysis::Reports& reports, const OutputOptions& options,
                          std::ostream& out);

}  // namespace gpuscope::render
