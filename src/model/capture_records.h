// The records that --trace, --api-capture and --cuda-graph-trace add (util/trace_scope.h):
// what a process traced, the hot API calls counted instead of recorded one by one, and graph
// launches recorded as one row each. Kept apart from records.h, which nearly every file
// includes.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/records.h"

namespace gpuscope::model {

// What was traced and how, in util/trace_scope.h's names ("cuda,nvtx", "activity", "node").
struct TraceScopeRecord {
  std::string_view trace;
  std::string_view api_capture;
  std::string_view cuda_graph_trace;
};

// Calls of one hot no-op function on one thread, counted instead of recorded one by one
// (`--api-capture callback`: cudaGetDevice, cuCtxGetCurrent, ... cupti/tracing/hot_api_calls.h).
// `calls` and `total_ns` are what a window added; min/max/first/last cover every call so
// far, so the writer adds the former and keeps the extremes of the latter.
struct ApiCallCountRecord {
  ApiDomain domain = ApiDomain::kRuntime;
  std::uint32_t cbid = 0;
  std::string_view name;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::uint64_t calls = 0;
  std::uint64_t total_ns = 0;
  std::uint64_t min_ns = 0;
  std::uint64_t max_ns = 0;
  Timestamp first_start = 0;
  Timestamp last_end = 0;
};

// One launch of a CUDA graph as one row (CUPTI GRAPH_TRACE, `--cuda-graph-trace graph`):
// from the start of its first node to the end of its last; its nodes have no rows of their own.
struct GraphLaunchRecord {
  Timestamp start = 0;
  Timestamp end = 0;
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  std::uint32_t correlation_id = 0;  // the cudaGraphLaunch / cuGraphLaunch call's
  std::uint32_t graph_id = 0;
};

}  // namespace gpuscope::model
