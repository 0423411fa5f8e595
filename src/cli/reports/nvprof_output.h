// nvprof's choice of tables, shared by `gpuscope run` (after the program) and `gpuscope stats`
// (from saved reports): --print-gpu-trace, --print-api-trace, --print-gpu-summary,
// --print-api-summary mean the same in both.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/report_checks.h"
#include "cli/options/option_parser.h"
#include "render/output_options.h"
#include "util/status.h"

namespace gpuscope::cli {

struct NvprofSelection {
  bool gpu_trace = false;
  bool api_trace = false;
  bool gpu_summary = false;
  bool api_summary = false;
};

// The four --print-* options, declared once for both commands, filling `selection`.
std::vector<OptionSpec> NvprofSelectionOptionSpecs(NvprofSelection& selection);

// In nvprof's order: traces first, then the summary. With nothing selected the whole summary
// is printed; asking for a trace replaces the summary, asking for one summary half prints
// only that half. A blank line separates tables.
Status WriteNvprofOutput(const analysis::Reports& reports, const NvprofSelection& selection,
                         const render::OutputOptions& output, std::ostream& out);

}  // namespace gpuscope::cli
