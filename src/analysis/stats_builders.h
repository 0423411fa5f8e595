// Aggregation for the nsys-style statistics tables. The report loop feeds rows; Build()
// sorts the groups and computes their statistics. Per row the work is a vector lookup and
// an append (durations grouped by name id), which keeps `stats` on 10 million kernels
// inside its time budget; the median comes from nth_element, not a sort.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/duration_stats.h"
#include "analysis/name_groups.h"
#include "analysis/stats_table.h"
#include "model/records.h"
#include "store/report_reader.h"
#include "store/trace_scope_rows.h"

namespace gpuscope::analysis {

// One group's statistics with its row label(s), ready to sort.
struct GroupStats {
  std::vector<std::string> labels;  // the text column(s) at the end of the row
  SampleStats stats;
  // false: some of the values were only counted (API calls counted in aggregate,
  // store/trace_scope_rows.h), so the median and deviation are unknown (printed blank).
  bool spread_known = true;
};

// The time tables share their layout: Time (%), Total Time (ns), <count>, Avg, Med, Min,
// Max, StdDev (ns), then the label columns; the groups largest total first.
StatsTable TimeTable(std::string title, std::string name, std::string subject,
                     const std::string& count_header, const std::vector<std::string>& labels,
                     std::vector<GroupStats> groups);

// Samples (durations or sizes) per named group.
class SampleGroups {
 public:
  NameGroups& names() { return names_; }
  void Add(std::size_t group, std::uint64_t value) {
    if (group >= samples_.size()) samples_.resize(group + 1);
    samples_[group].push_back(value);
  }
  std::size_t size() const { return samples_.size(); }
  std::vector<std::uint64_t>& samples(std::size_t group) { return samples_[group]; }

 private:
  NameGroups names_;
  std::vector<std::vector<std::uint64_t>> samples_;
};

// cuda_gpu_kern_sum: kernels by demangled name.
class KernelSumBuilder {
 public:
  void BeginReport() { groups_.names().BeginReport(); }
  void AddKernel(const store::KernelRow& row);
  StatsTable Build();

 private:
  SampleGroups groups_;
};

// cuda_gpu_kern_gb_sum: kernels by demangled name, grid and block (nsys's
// "CUDA GPU Kernel/Grid/Block Summary"): one kernel launched with two block sizes is two
// rows, so a change of launch configuration shows. Columns as the Nsight Systems Analysis
// Guide lists them: Time (%) ... StdDev (ns), GridXYZ, BlockXYZ, Name
// (tests/analysis/nsys_column_sets_test.cpp).
class KernelGridBlockSumBuilder {
 public:
  void AddKernel(const store::KernelRow& row);
  StatsTable Build();

 private:
  SampleGroups groups_;
  std::string key_;  // reused: "grid\x1fblock\x1fname"
};

// cuda_api_sum: the nvprof summary's API selection, by name.
class ApiSumBuilder {
 public:
  void BeginReport() { groups_.names().BeginReport(); }
  void AddApiCall(const store::ApiCallRow& row);
  // Hot calls counted in aggregate (api_call_counts): added to their names' rows, whose
  // median and deviation are then unknown.
  void AddApiCallCount(const store::ApiCallCountRow& row);
  StatsTable Build();

 private:
  SampleGroups groups_;
  std::vector<RunningStats> counted_;  // by name group
};

// cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum: copies by kind, and memsets.
class MemOpsBuilder {
 public:
  void AddMemcpy(const model::MemcpyRecord& record);
  void AddMemset(const model::MemsetRecord& record);
  StatsTable BuildTimeTable();
  StatsTable BuildSizeTable();

 private:
  // One slot per copy kind, then memsets.
  static constexpr std::size_t kMemsetSlot = static_cast<std::size_t>(model::CopyKind::kPtoP) + 1;
  static std::string SlotName(std::size_t slot);
  std::array<std::vector<std::uint64_t>, kMemsetSlot + 1> durations_;
  std::array<std::vector<std::uint64_t>, kMemsetSlot + 1> sizes_;
};

// nvtx_sum: ended push/pop and start/end ranges, by style and "domain:name" (marks have
// no duration and unended ranges no end; both are left out).
class NvtxSumBuilder {
 public:
  void AddNvtx(const model::NvtxRecord& record);
  StatsTable Build();

 private:
  SampleGroups push_pop_;
  SampleGroups start_end_;
  std::string key_;  // reused: the Range label without an allocation per row
};

}  // namespace gpuscope::analysis
