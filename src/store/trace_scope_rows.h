// What a report says about its own scope (meta.trace, meta.api_capture,
// meta.cuda_graph_trace: util/trace_scope.h) and the two tables that scope adds: the hot
// API calls counted per thread and function (api_call_counts) and the graph launches traced
// as one row each (graph_launches). Reports of schema version 3 and older have neither table
// and read as "everything traced, API calls as activity records, graphs per node".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/capture_records.h"
#include "model/records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

struct RecordedScope {
  std::string trace = "cuda,nvtx";     // meta.trace
  std::string api_capture = "activity";  // meta.api_capture
  std::string cuda_graph_trace = "node";  // meta.cuda_graph_trace
  bool recorded = false;  // the report wrote them (false: the defaults above, an older report)
  bool TracedCudaApi() const;
  bool TracedCudaGpu() const;
  bool TracedNvtx() const;
};
StatusOr<RecordedScope> ReadRecordedScope(const ReportReader& report);

// One api_call_counts row, times absolute; `record.name` views `name`, so rows must not be
// copied apart from their name (use the vector as returned).
struct ApiCallCountRow {
  model::ApiCallCountRecord record;
  std::string name;
  std::uint32_t name_id = 0;
};
// Every row (rows whose numbers cannot be true, such as a minimum above the maximum, are
// left out and counted in `damaged`); empty for reports without the table.
StatusOr<std::vector<ApiCallCountRow>> ReadApiCallCounts(const ReportReader& report,
                                                         std::uint64_t* damaged = nullptr);

// graph_launches rows, times absolute, in insertion order; empty without the table.
StatusOr<std::vector<model::GraphLaunchRecord>> ReadGraphLaunches(const ReportReader& report);

}  // namespace gpuscope::store
