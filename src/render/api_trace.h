// nvprof's --print-api-trace, streamed from reports.
#pragma once

#include <ostream>

#include "analysis/report_checks.h"
#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::render {

// nvprof --print-api-trace: Start, Duration, Name for the summary's selection of API calls
// (nested driver calls left out), every report merged into one start order; CSV adds
// Correlation_ID. Streams like WriteGpuTrace.
Status WriteApiTrace(const analysis::Reports& reports, const OutputOptions& options,
                     std::ostream& out);

}  // namespace gpuscope::render
