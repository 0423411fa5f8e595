// nvprof's summary mode from reports: analysis computes it (analysis/nvprof_summary_reports.h),
// nvprof_summary_format.h lays it out. What `gpuscope run` prints after the program and
// `gpuscope stats` from saved reports (cli/reports/nvprof_output.h chooses the sections).
#pragma once

#include <ostream>

#include "analysis/report_checks.h"
#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::render {

// The sections `options` asks for (gpu_activities, api_calls), kernels named as
// options.demangle says; rows with equal names merge across reports.
Status WriteNvprofSummary(const analysis::Reports& reports, const OutputOptions& options,
                          std::ostream& out);

}  // namespace gpuscope::render
