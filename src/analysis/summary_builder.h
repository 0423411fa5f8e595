// Aggregation for nvprof's summary mode, separate from reading and from printing: the
// report loop feeds rows in, the formatter prints what Build() returns. Tests feed rows
// directly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/duration_stats.h"
#include "analysis/name_groups.h"
#include "model/records.h"
#include "store/report_reader.h"
#include "store/trace_scope_rows.h"

namespace gpuscope::analysis {

// One line of a summary section: every call of one name.
struct SummaryRow {
  std::string name;
  RunningStats time;  // nanoseconds
};

struct NvprofSummary {
  // Kernels, copies and memsets; sorted by total time, longest first (then by name).
  std::vector<SummaryRow> gpu_activities;
  // Runtime calls and driver calls not made from inside a runtime call; same order.
  std::vector<SummaryRow> api_calls;
  // Rows left out because they carry no timestamps (or an end before their start).
  std::uint64_t untimed_gpu_activities = 0;
  std::uint64_t untimed_api_calls = 0;
  // Whether any report traced them (meta.trace, --trace): a section that was not traced is
  // "not traced", not "none".
  bool gpu_activities_traced = true;
  bool api_calls_traced = true;
};

class NvprofSummaryBuilder {
 public:
  // demangle=false: kernels are grouped and named by their mangled names.
  explicit NvprofSummaryBuilder(bool demangle) : demangle_(demangle) {}

  // Call before the rows of each report: name ids are per report.
  void BeginReport();

  void AddKernel(const store::KernelRow& row);
  void AddMemcpy(const model::MemcpyRecord& record);
  void AddMemset(const model::MemsetRecord& record);
  void AddApiCall(const store::ApiCallRow& row);
  // Hot calls counted in aggregate (api_call_counts), added to their names' rows.
  void AddApiCallCount(const store::ApiCallCountRow& row);

  NvprofSummary Build() const;

 private:
  static constexpr std::size_t kCopyKinds = static_cast<std::size_t>(model::CopyKind::kPtoP) + 1;

  bool demangle_;
  std::uint64_t untimed_ = 0;
  std::uint64_t untimed_api_calls_ = 0;
  NameGroups kernel_names_;
  std::vector<RunningStats> kernels_;
  std::array<RunningStats, kCopyKinds> copies_{};
  RunningStats memsets_;
  NameGroups api_names_;
  std::vector<RunningStats> api_calls_;
};

// Adds calls that were only counted (api_call_counts) to `stats`.
inline void AddCounted(RunningStats& stats, const model::ApiCallCountRecord& counted) {
  if (counted.calls == 0) return;
  stats.count += counted.calls;
  stats.total += counted.total_ns;
  if (counted.min_ns < stats.min) stats.min = counted.min_ns;
  if (counted.max_ns > stats.max) stats.max = counted.max_ns;
}

// nvprof counts only the outermost API call: runtime calls, and driver calls that a
// runtime call did not make on the program's behalf.
inline bool IsSummarizedApiCall(const store::ApiCallRow& row) {
  return row.record.domain == model::ApiDomain::kRuntime || !row.nested_in_runtime;
}

}  // namespace gpuscope::analysis
