#include "cli/nvprof_output.h"

#include "render/api_trace.h"
#include "render/gpu_trace.h"
#include "render/nvprof_summary.h"

namespace gpuscope::cli {

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
    render::OutputOptions summary = output;
    summary.gpu_activities = !any_summary || selection.gpu_summary;
    summary.api_calls = !any_summary || selection.api_summary;
    GPUSCOPE_RETURN_IF_ERROR(render::WriteNvprofSummary(reports, summary, out));
  }
  return {};
}

}  // namespace gpuscope::cli
