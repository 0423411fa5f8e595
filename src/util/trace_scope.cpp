#include "util/trace_scope.h"

#include "util/comma_list.h"

namespace gpuscope {

StatusOr<TraceScope> ParseTraceList(std::string_view text, TraceScope scope) {
  scope.cuda_api = scope.cuda_gpu = scope.nvtx = false;
  const std::vector<std::string> names = SplitCommaList(text);
  if (names.empty()) {
    return Status::Error("--trace needs a list of names (valid: " + std::string(kTraceNames) + ")");
  }
  for (const std::string& name : names) {
    if (name == "cuda") {
      scope.cuda_api = scope.cuda_gpu = true;
    } else if (name == "cuda-gpu") {
      scope.cuda_gpu = true;
    } else if (name == "nvtx") {
      scope.nvtx = true;
    } else if (name == "none") {
      if (names.size() != 1) return Status::Error("--trace none cannot be combined with other names");
    } else {
      return Status::Error("--trace: unknown name '" + name + "' (valid: " +
                           std::string(kTraceNames) + ")");
    }
  }
  return scope;
}

std::string TraceListName(const TraceScope& scope) {
  std::vector<std::string> names;
  if (scope.cuda_api && scope.cuda_gpu) {
    names.push_back("cuda");
  } else if (scope.cuda_gpu) {
    names.push_back("cuda-gpu");
  } else if (scope.cuda_api) {
    names.push_back("cuda-api");  // not a --trace name: no option asks for it alone
  }
  if (scope.nvtx) names.push_back("nvtx");
  return names.empty() ? "none" : JoinCommaList(names);
}

std::string_view ApiCaptureName(ApiCapture capture) {
  return capture == ApiCapture::kCallback ? "callback" : "activity";
}

StatusOr<ApiCapture> ParseApiCapture(std::string_view text) {
  if (text == "activity") return ApiCapture::kActivity;
  if (text == "callback") return ApiCapture::kCallback;
  return Status::Error("--api-capture: unknown method '" + std::string(text) +
                       "' (valid: activity, callback)");
}

std::string_view CudaGraphTraceName(CudaGraphTrace trace) {
  return trace == CudaGraphTrace::kGraph ? "graph" : "node";
}

StatusOr<CudaGraphTrace> ParseCudaGraphTrace(std::string_view text) {
  if (text == "node") return CudaGraphTrace::kNode;
  if (text == "graph") return CudaGraphTrace::kGraph;
  return Status::Error("--cuda-graph-trace: unknown value '" + std::string(text) +
                       "' (valid: graph, node)");
}

}  // namespace gpuscope
