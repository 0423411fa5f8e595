// The interface every trace rule implements, and what the driver hands it.
//
// The driver (run_trace_rules.cpp) streams the report once: GPU activities (kernels, copies,
// memsets) merged into one start-ordered stream, then API calls, then memory records. A rule
// keeps aggregates and a few examples, never the rows themselves, so that a report of ten
// million events is analysed in bounded memory.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "analysis/finding.h"
#include "analysis/gpu_activity.h"
#include "model/records.h"
#include "store/report_reader.h"

namespace gpuscope::analysis::trace_rules {

// The run as a whole: what shares are taken of.
struct RunExtent {
  model::Timestamp start = 0;  // first API call or GPU activity
  model::Timestamp end = 0;    // last one's end
  // The report comes from `gpuscope profile`: replayed kernels stretched the timeline (each
  // replay pass, saving and restoring memory, evaluating), so gaps and overlaps between
  // activities say nothing about the program; rules about them stay silent.
  bool kernel_replay = false;
  // The time the profiled launches took (replay passes, memory save and restore), inside
  // [start, end]. Not the program's time: shares are taken of the span without it, or an
  // 18 ms pageable copy in a 0.8 s program looks like 0.3% of a 6.7 s profiled run.
  std::uint64_t replay_ns = 0;
  std::uint64_t span_ns() const {
    std::uint64_t span = end > start ? end - start : 0;
    return span > replay_ns ? span - replay_ns : span;
  }
};

// One GPU metric sample (`run --gpu-metrics`) with the values rules use, found by role
// (util/gpu_metric_sets.h). Fed before the GPU activities, in time order per device.
struct GpuMetricPoint {
  std::uint32_t device_id = 0;
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  std::optional<double> sm_active_pct;
  std::optional<double> dram_bytes_per_second;  // read + write
  // The device's DRAM bandwidth (devices.global_memory_bandwidth_kbps); nullopt: unknown.
  std::optional<double> dram_peak_bytes_per_second;
};

class TraceRule {
 public:
  virtual ~TraceRule() = default;
  virtual void OnGpuMetricSample(const GpuMetricPoint& sample) { (void)sample; }
  virtual void OnGpuActivity(const GpuActivity& activity) { (void)activity; }
  virtual void OnApiCall(const store::ApiCallRow& call) { (void)call; }
  virtual void OnMemory(const model::MemoryRecord& record) { (void)record; }
  // The finding, if the pattern was found and matters for this run.
  virtual std::optional<Finding> Finish(const RunExtent& run) = 0;
};

// One factory per rule (one file each), in the order findings are printed.
std::unique_ptr<TraceRule> MakePageableCopiesRule();
std::unique_ptr<TraceRule> MakeSynchronousTransfersRule();
std::unique_ptr<TraceRule> MakeIdleGapsRule();
std::unique_ptr<TraceRule> MakeLaunchBoundKernelsRule();
std::unique_ptr<TraceRule> MakeSerializedTransfersRule();
std::unique_ptr<TraceRule> MakeAllocationInLoopRule();
std::unique_ptr<TraceRule> MakeGpuMetricStretchesRule();

std::vector<std::unique_ptr<TraceRule>> MakeAllTraceRules();

}  // namespace gpuscope::analysis::trace_rules
