#include "cli/nvprof_output.h"

#include "render/api_trace.h"
#include "render/gpu_trace.h"
#include "render/nvprof_summary.h"

namespace gpuscope::cli {

namespace {

enum NvprofSelectionOptionId {
  kPrintGpuTrace = kFirstNvprofSelectionOption,
  kPrintApiTrace,
  kPrintGpuSummary,
  kPrintApiSummary,
};

constexpr OptionSpec kNvprofSelectionOptions[] = {
    {kPrintGpuTrace, "print-gpu-trace", 0, "",
     "nvprof's trace: one row per kernel, copy and memset"},
    {kPrintApiTrace, "print-api-trace", 0, "", "nvprof's trace: one row per CUDA API call"},
    {kPrintGpuSummary, "print-gpu-summary", 0, "", "only the GPU activities of the summary"},
    {kPrintApiSummary, "print-api-summary", 0, "", "only the API calls of the summary"},
};

}  // namespace

std::span<const OptionSpec> NvprofSelectionOptionSpecs() { return kNvprofSelectionOptions; }

bool ApplyNvprofSelectionOption(const ParsedOption& option, NvprofSelection& selection) {
  switch (option.id) {
    case kPrintGpuTrace:
      selection.gpu_trace = true;
      return true;
    case kPrintApiTrace:
      selection.api_trace = true;
      return true;
    case kPrintGpuSummary:
      selection.gpu_summary = true;
      return true;
    case kPrintApiSummary:
      selection.api_summary = true;
      return true;
    default:
      return false;
  }
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
    render::OutputOptions summary = output;
    summary.gpu_activities = !any_summary || selection.gpu_summary;
    summary.api_calls = !any_summary || selection.api_summary;
    GPUSCOPE_RETURN_IF_ERROR(render::WriteNvprofSummary(reports, summary, out));
  }
  return {};
}

}  // namespace gpuscope::cli
