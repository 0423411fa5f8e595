#include "inject/record_router.h"

#include <string>

#include "inject/log.h"
#include "inject/module_map.h"
#include "inject/own_replay_calls.h"
#include "inject/profiler_time.h"
#include "model/overhead_kinds.h"

namespace gpuscope::inject {

RecordRouter::RecordRouter(model::RecordSink& sink, ApiNestingLimits nesting_limits,
                           NvtxStartEndIds* nvtx_start_end_ids, CallStacks* call_stacks)
    : sink_(sink),
      nesting_(sink, nesting_limits),
      nvtx_(sink, nvtx_start_end_ids),
      call_stacks_(call_stacks) {}

// GPU records with start == 0 or end == 0 are real work CUPTI could not time (its device
// buffer was full, or the record was force-flushed before the GPU finished). They are
// written anyway, so that counts stay right, and counted, so that summaries can say so.
void RecordRouter::OnKernel(const model::KernelRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  if (record.start == 0 || record.end == 0) ++counters_.kernels_without_timestamp;
  SeeTimestamp(record.end);
  sink_.OnKernel(record);
}

void RecordRouter::OnMemcpy(const model::MemcpyRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  if (record.start == 0 || record.end == 0) ++counters_.copies_without_timestamp;
  SeeTimestamp(record.end);
  sink_.OnMemcpy(record);
}

void RecordRouter::OnMemset(const model::MemsetRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  if (record.start == 0 || record.end == 0) ++counters_.memsets_without_timestamp;
  SeeTimestamp(record.end);
  sink_.OnMemset(record);
}

void RecordRouter::OnApiCall(const model::ApiCallRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  SeeTimestamp(record.start);
  nesting_.OnApiCall(Completed(record));
}

// What both kinds of API record get before they are written, by correlation id: the call's
// host stack (--backtrace), and for the launch call of a profiled kernel the replay taken out
// of its time (the profiler's, not the call's) and written once as an overhead record.
model::ApiCallRecord RecordRouter::Completed(const model::ApiCallRecord& record) {
  model::ApiCallRecord completed = record;
  if (call_stacks_ != nullptr) completed.stack_id = call_stacks_->TakeStackId(record.correlation_id);
  std::optional<ProfilerInterval> replay = TakeProfilerTime(record.correlation_id);
  if (!replay) return completed;
  completed = WithoutProfilerTime(completed, *replay);
  if (replay->outermost && completed.end != record.end) {
    model::OverheadRecord overhead;
    overhead.start = replay->start;
    overhead.end = replay->end;
    overhead.overhead_kind = model::kGpuscopeReplayOverheadKind;
    overhead.process_id = record.process_id;
    overhead.thread_id = record.thread_id;
    overhead.name = "gpuscope replay of a profiled launch";
    sink_.OnOverhead(overhead);
  }
  return completed;
}

void RecordRouter::OnStream(const model::StreamRecord& record) {
  // gpuscope's clock stream (cupti/tracing/gpu_clock.h) is not the program's.
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  sink_.OnStream(record);
}

void RecordRouter::OnTopLevelApiCall(const model::ApiCallRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  SeeTimestamp(record.start);
  sink_.OnApiCall(Completed(record), /*nested_in_runtime=*/false);
}

void RecordRouter::OnApiCallCount(const model::ApiCallCountRecord& record) {
  SeeTimestamp(record.last_end);
  sink_.OnApiCallCount(record);
}

void RecordRouter::OnGraphLaunch(const model::GraphLaunchRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  SeeTimestamp(record.end);
  sink_.OnGraphLaunch(record);
}

void RecordRouter::OnMemory(const model::MemoryRecord& record) {
  // The pinned slot of gpuscope's clock kernel is not the program's allocation.
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  SeeTimestamp(record.timestamp);
  sink_.OnMemory(record);
}

void RecordRouter::OnSync(const model::SyncRecord& record) {
  if (IsOwnReplayCall(record.correlation_id)) return SkipOwnReplay();
  SeeTimestamp(record.end);
  sink_.OnSync(record);
}

void RecordRouter::OnOverhead(const model::OverheadRecord& record) { sink_.OnOverhead(record); }

void RecordRouter::OnNvtxMarker(const NvtxMarker& marker) {
  SeeTimestamp(marker.timestamp);
  nvtx_.OnMarker(marker);
}

void RecordRouter::OnNvtxMarkerData(std::uint32_t id, std::uint32_t color, std::uint32_t category) {
  nvtx_.OnMarkerData(id, color, category);
}

void RecordRouter::OnUnknownRecord(std::uint32_t kind) {
  ++counters_.unknown_records;
  const std::uint64_t bit = kind < 64 ? (std::uint64_t{1} << kind) : 0;
  if (bit == 0 || (unknown_kinds_seen_ & bit) == 0) {
    unknown_kinds_seen_ |= bit;
    LogDebug("activity record of kind " + std::to_string(kind) +
             " is not translated; counted as unknown");
  }
}

void RecordRouter::OnUnreadableRest(std::uint32_t cupti_status) {
  ++counters_.unreadable_buffers;
  LogError("an activity buffer could not be read to its end (CUPTI status " +
           std::to_string(cupti_status) + "); counted as one unreadable buffer");
}

void RecordRouter::OnTranslationFailed() { ++counters_.unreadable_buffers; }

void RecordRouter::WriteNewStacks() {
  if (call_stacks_ == nullptr) return;
  for (const NewStack& stack : call_stacks_->TakeNewStacks()) {
    sink_.OnStack({stack.id, stack.frames.data(), stack.frames.size()});
  }
  counters_.stacks_dropped = call_stacks_->dropped();
}

// At every commit, not only at the end: a report whose process was killed keeps the modules
// of its last commit. Each (path, start) is written once.
void RecordRouter::WriteModules() {
  if (call_stacks_ == nullptr) return;
  for (const LoadedModule& module : LoadedModules()) {
    if (!modules_written_.emplace(module.path, module.start).second) continue;
    sink_.OnModule({module.path, module.start, module.end, module.bias, module.build_id});
  }
}

void RecordRouter::Commit() {
  WriteNewStacks();
  WriteModules();
  nesting_.ExpireOlderThan(newest_timestamp_);
  counters_.unfinished_nvtx_ranges = nvtx_.unfinished_ranges();
  counters_.tracing_paused_ns = TracingPausedNs();
  sink_.OnCounters(counters_);
  sink_.Flush();
}

void RecordRouter::Finish() {
  nvtx_.Finish();
  nesting_.Finish();
  Commit();
}

}  // namespace gpuscope::inject
