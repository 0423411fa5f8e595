// What `gpuscope run` records and how (issue 15): the `--trace` list, how CUDA API calls are
// captured (`--api-capture`) and how CUDA graph launches are traced (`--cuda-graph-trace`).
// Shared by the CLI (parses the options, sets the variables), the injection (reads them,
// enables what they say) and the report writer and readers (meta.trace, meta.api_capture,
// meta.cuda_graph_trace: a reader says "not traced" rather than "none"). One spelling of
// each name, here.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope {

// How the CUDA API calls are captured.
enum class ApiCapture {
  // CUPTI's RUNTIME and DRIVER activity records: every call, the driver calls the runtime
  // makes inside its own calls included (inject/api_nesting marks them afterwards).
  kActivity,
  // CUPTI's callback API with gpuscope's own timestamps: the runtime calls and the driver
  // calls made outside a runtime call, one row each, and the hot no-op calls
  // (cupti/tracing/hot_api_calls.h) counted per thread and function in api_call_counts.
  kCallback,
};

// THE default capture, the one place to change it (bench/RESULTS.md, scripts/
// bench-tracer-cost.sh measure the candidates; src/cupti/tracing/README.md says why this one).
inline constexpr ApiCapture kDefaultApiCapture = ApiCapture::kActivity;

enum class CudaGraphTrace {
  kNode,   // every kernel, copy and memset of a graph launch (the default)
  kGraph,  // one row per graph launch (graph_launches), none per node
};

// The --trace list as switches.
struct TraceScope {
  bool cuda_api = true;  // CUDA runtime and driver API calls (with synchronisations)
  bool cuda_gpu = true;  // kernels, copies, memsets, memory, CUPTI's overhead records
  bool nvtx = true;      // NVTX marks and ranges
  ApiCapture api_capture = kDefaultApiCapture;
  CudaGraphTrace cuda_graph_trace = CudaGraphTrace::kNode;
};

// The names --trace accepts, for help and error texts: "cuda, cuda-gpu, nvtx, none".
inline constexpr std::string_view kTraceNames = "cuda, cuda-gpu, nvtx, none";
inline constexpr std::string_view kDefaultTraceList = "cuda,nvtx";

// "cuda,nvtx" -> the switches (api_capture and cuda_graph_trace left as in `scope`).
// cuda: API calls and GPU work; cuda-gpu: GPU work without API calls; nvtx; none: nothing
// (alone). An unknown or empty name is an error naming the valid ones.
StatusOr<TraceScope> ParseTraceList(std::string_view text, TraceScope scope = {});
// The switches as the list ParseTraceList reads back ("none" when nothing is traced).
std::string TraceListName(const TraceScope& scope);

std::string_view ApiCaptureName(ApiCapture capture);  // "activity", "callback"
StatusOr<ApiCapture> ParseApiCapture(std::string_view text);

std::string_view CudaGraphTraceName(CudaGraphTrace trace);  // "node", "graph"
StatusOr<CudaGraphTrace> ParseCudaGraphTrace(std::string_view text);

}  // namespace gpuscope
