#include "cli/reports/nvprof_output.h"

#include "cli/options/option_targets.h"
#include "render/api_trace.h"
#include "render/gpu_trace.h"
#include "render/nvprof_summary.h"

namespace gpuscope::cli {

std::vector<OptionSpec> NvprofSelectionOptionSpecs(NvprofSelection& selection) {
  return {
      {"print-gpu-trace", 0, "", "nvprof's trace: one row per kernel, copy and memset",
       SetFlag(selection.gpu_trace)},
      {"print-api-trace", 0, "", "nvprof's trace: one row per CUDA API call",
       SetFlag(selection.api_trace)},
      {"print-gpu-summary", 0, "", "only the GPU activities of the summary",
       SetFlag(selection.gpu_summary)},
      {"print-api-summary", 0, "", "only the API calls of the summary",
       SetFlag(selection.api_summary)},
  };
}

Status WriteNvprofOutput(const analysis::Reports& reports, const NvprofSelection& selection,
                         const render::OutputOptions& output, std::ostream& out) {
  bool any_trace = selection.gpu_trace || selection.api_trace;
  bool any_summary = selection.gpu_summary || selection.api_summary;
  bool first = true;
  auto separate = [&] {
    if (!first) out << '\n';
    first = false;
  };
  if (selection.gpu_trace) {
    separate();
    GPUSCOPE_RETURN_IF_ERROR(render::WriteGpuTrace(reports, output, out));
  }
  if (selection.api_trace) {
    separate();
    GPUSCOPE_RETURN_IF_ERROR(render::WriteApiTrace(reports, output, out));
  }
  if (any_summary || !any_trace) {
    separate();
    render::OutputOptions layout = output;
    layout.gpu_activities = !any_summary || selection.gpu_summary;
    layout.api_calls = !any_summary || selection.api_summary;
    GPUSCOPE_RETURN_IF_ERROR(render::WriteNvprofSummary(reports, layout, out));
  }
  return {};
}

}  // namespace gpuscope::cli
