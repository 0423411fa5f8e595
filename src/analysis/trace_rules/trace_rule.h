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
#include "analysis/trace_rules/gpu_activity.h"
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
  std::uint64_t span_ns() const { return end > start ? end - start : 0; }
};

class TraceRule {
 public:
  virtual ~TraceRule() = default;
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

std::vector<std::unique_ptr<TraceRule>> MakeAllTraceRules();

}  // namespace gpuscope::analysis::trace_rules
