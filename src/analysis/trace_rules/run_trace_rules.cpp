#include "analysis/trace_rules/run_trace_rules.h"

#include <algorithm>
#include <memory>

#include "analysis/trace_rules/gpu_activity_stream.h"
#include "analysis/trace_rules/trace_rule.h"
#include "store/profile_store.h"

namespace gpuscope::analysis::trace_rules {

std::vector<std::unique_ptr<TraceRule>> MakeAllTraceRules() {
  std::vector<std::unique_ptr<TraceRule>> rules;
  rules.push_back(MakePageableCopiesRule());
  rules.push_back(MakeSynchronousTransfersRule());
  rules.push_back(MakeIdleGapsRule());
  rules.push_back(MakeLaunchBoundKernelsRule());
  rules.push_back(MakeSerializedTransfersRule());
  rules.push_back(MakeAllocationInLoopRule());
  return rules;
}

namespace {

void Extend(RunExtent& run, model::Timestamp start, model::Timestamp end) {
  if (start == 0 || end < start) return;  // untimed rows say nothing about the run's extent
  if (run.start == 0 || start < run.start) run.start = start;
  run.end = std::max(run.end, end);
}

}  // namespace

StatusOr<std::vector<Finding>> RunTraceRules(const store::ReportReader& reader) {
  std::vector<std::unique_ptr<TraceRule>> rules = MakeAllTraceRules();
  RunExtent run;
  // One small row per profiled launch (the counter data stays in the file).
  StatusOr<std::vector<store::StoredProfile>> profiled = store::ReadProfiledKernels(reader);
  if (!profiled.ok()) return profiled.status();
  run.kernel_replay = !profiled->empty();
  for (const store::StoredProfile& launch : *profiled) {
    if (launch.end > launch.start) run.replay_ns += launch.end - launch.start;
  }
  GPUSCOPE_RETURN_IF_ERROR(ForEachGpuActivity(reader, [&](const GpuActivity& activity) {
    Extend(run, activity.start, activity.end);
    for (auto& rule : rules) rule->OnGpuActivity(activity);
  }));
  // Memory records before API calls: allocation_in_loop picks the calls by what the memory
  // records showed.
  GPUSCOPE_RETURN_IF_ERROR(reader.ForEachMemory([&](const model::MemoryRecord& record) {
    for (auto& rule : rules) rule->OnMemory(record);
    return true;
  }));
  GPUSCOPE_RETURN_IF_ERROR(reader.ForEachApiCall([&](const store::ApiCallRow& call) {
    Extend(run, call.record.start, call.record.end);
    for (auto& rule : rules) rule->OnApiCall(call);
    return true;
  }));
  std::vector<Finding> findings;
  for (auto& rule : rules) {
    if (std::optional<Finding> finding = rule->Finish(run)) {
      findings.push_back(std::move(*finding));
    }
  }
  return findings;
}

}  // namespace gpuscope::analysis::trace_rules
