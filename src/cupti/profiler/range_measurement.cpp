// --replay-mode app-range inside the traced process: the work of one range of the program
// (cudaProfilerStart/Stop, or an NVTX range --nvtx-include matched: range_boundaries.h) is
// measured as one result, the program run once per pass as in application replay (the CLI
// runs it; the counter data is kept between runs by inject/app_replay_store.h under the
// range's profile index and name).
//
//   begin  the context is synchronised (the range holds none of the earlier work), then the
//          range profiler is enabled if needed, SetConfig(user range, application replay, the
//          step the previous run left), Start, PushRange(the range's name)
//   end    the context is synchronised (the range holds all of its work), PopRange, Stop,
//          DecodeData; every run but the last saves the image for the next run
//
// Ranges are measured one at a time: a matching range that begins while another is measured
// is not counted (said once). -s/-c count the matching ranges. The range profiler is disabled
// once -c ranges were measured (CUPTI must never enable it twice on a context).
#include <cupti.h>

#include "cupti/common/counter_access.h"
#include "cupti/common/driver_entry_points.h"
#include "cupti/profiler/kernel_profiler.h"
#include "cupti/profiler/profile_progress.h"
#include "cupti/tracing/activity.h"
#include "cupti/tracing/own_replay_scope.h"
#include "inject/log.h"
#include "inject/profiler_time.h"

namespace gpuscope::cupti {

namespace {

// The context the range's work runs in: the API callback's, else the thread's current one.
CUcontext RangeContext(CUcontext api_context) {
  if (api_context != nullptr) return api_context;
  StatusOr<const DriverEntryPoints*> driver = Driver();
  CUcontext current = nullptr;
  if (driver.ok() && (*driver)->context_get_current != nullptr) {
    (*driver)->context_get_current(&current);
  }
  return current;
}

// Waits for the context's work; gpuscope's own call, left out of the trace.
void SynchronizeForRange() {
  OwnReplayScope own(0, 0);
  Status synced = SynchronizeContext();
  if (!synced.ok()) inject::LogDebug("range boundary: " + synced.message());
}

}  // namespace

bool KernelProfiler::RangesExhausted() const {
  return config_.filter.launch_count.has_value() && ranges_selected_ >= *config_.filter.launch_count;
}

void KernelProfiler::SubmitRange(inject::OwnedProfiledKernel& range) {
  range.record.end = Now();
  if (hooks_.progress) PrintProgressLine(range);
  if (hooks_.submit) hooks_.submit(std::move(range));
}

void KernelProfiler::BeginRange(const RangeBoundary& boundary, CUcontext api_context) {
  if (open_range_ != nullptr) {
    if (!said_overlap_) {
      said_overlap_ = true;
      inject::LogError("range \"" + boundary.name + "\" began while \"" +
                       open_range_->result.mangled_name +
                       "\" was measured: ranges are measured one at a time, it is not counted");
    }
    return;
  }
  const std::uint64_t index = ranges_seen_++;
  if (!WithinSkipAndCount(config_.filter, index) || RangesExhausted()) return;
  auto open = std::make_unique<OpenRange>();
  inject::OwnedProfiledKernel& range = open->result;
  range.record.profile_index = ranges_selected_++;
  range.record.invocation = static_cast<std::uint32_t>(index);
  range.record.replay_mode = model::ReplayMode::kAppRange;
  range.record.start = Now();
  range.mangled_name = boundary.name;
  const CUcontext context_handle = RangeContext(api_context);
  if (context_handle == nullptr) {
    range.record.outcome = model::ProfileOutcome::kNotReplayable;
    range.message = "no CUDA context was current on the thread where the range began";
    SubmitRange(range);
    return;
  }
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  cuptiGetDeviceId(context_handle, &device_id);
  cuptiGetContextId(context_handle, &context_id);
  range.record.device_id = device_id;
  range.record.context_id = context_id;
  ContextRangeProfiler& context = ContextFor(context_handle, device_id);
  range.chip = context.chip();
  range.record.passes = context.passes();
  ProfileFailure failure = context.failure();
  if (failure.empty()) {
    SynchronizeForRange();
    failure = BeginMeasurement(context, range, boundary.name.c_str());
  }
  if (!failure.empty()) {
    if (failure.outcome == model::ProfileOutcome::kCountersUnavailable) {
      SayUnavailableOnce(failure.message);
    }
    range.record.outcome = failure.outcome;
    range.message = failure.message;
    if (RangesExhausted()) context.Disable();
    SubmitRange(range);
    return;
  }
  open->token = boundary.token;
  open->context = &context;
  open->serial_kernels.emplace();  // CUPTI's kernel timing code would be counted (activity.h)
  open->launches_at_begin = kernel_launches_.load(std::memory_order_relaxed);
  open_range_ = std::move(open);
}

void KernelProfiler::EndRange(const RangeBoundary& boundary) {
  if (open_range_ == nullptr || open_range_->token != boundary.token) return;
  std::unique_ptr<OpenRange> open = std::move(open_range_);
  inject::OwnedProfiledKernel& range = open->result;
  ContextRangeProfiler& context = *open->context;
  range.record.range_kernels =
      kernel_launches_.load(std::memory_order_relaxed) - open->launches_at_begin;
  SynchronizeForRange();
  std::string what;
  StopResult stopped;
  CUptiResult result = context.EndMeasurement(what, stopped, /*pop_range=*/true);
  if (RangesExhausted()) context.Disable();
  const bool done = RecordMeasurement(result, what, stopped, context, range);
  if (!done) {
    // Every run but the last only adds its pass to the image kept between runs.
    if (hooks_.progress) PrintReplayPassLine(range, config_.app_pass + 1, config_.app_passes);
    return;
  }
  SubmitRange(range);
}

void KernelProfiler::OnProfilerApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                           const CUpti_CallbackData& data) {
  // The runtime call around a driver boundary call, whose API record also holds the
  // boundary's time (inject/profiler_time.h takes it out of both).
  thread_local std::uint32_t runtime_call = 0;
  try {
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
      runtime_call = data.callbackSite == CUPTI_API_ENTER ? data.correlationId : 0;
    }
    RangeBoundary boundary = boundaries_.OnApiCallback(domain, cbid, data);
    if (boundary.kind == RangeBoundary::Kind::kNone) return;
    const model::Timestamp started = Now();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (boundary.kind == RangeBoundary::Kind::kBegin) {
        BeginRange(boundary, data.context);
      } else {
        EndRange(boundary);
      }
    }
    // The synchronisation and the profiler's steps are gpuscope's time, not the program's.
    inject::NoteProfilerTime(runtime_call != 0 ? runtime_call : data.correlationId,
                             data.correlationId, started, Now());
  } catch (...) {
    // Never into the program; the range is lost, said in the debug log only.
    inject::LogError("app-range: gpuscope failed internally at a range boundary; the range is not measured");
  }
}

void KernelProfiler::OnNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data) {
  try {
    RangeBoundary boundary = boundaries_.OnNvtxCallback(cbid, data);
    if (boundary.kind == RangeBoundary::Kind::kNone) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (boundary.kind == RangeBoundary::Kind::kBegin) {
      BeginRange(boundary, nullptr);
    } else {
      EndRange(boundary);
    }
  } catch (...) {
    inject::LogError("app-range: gpuscope failed internally at an NVTX range boundary; the range is not measured");
  }
}

void KernelProfiler::AbandonOpenRange() {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (open_range_ == nullptr) return;
    std::unique_ptr<OpenRange> open = std::move(open_range_);
    open->context->StopAfterFailure();
    inject::OwnedProfiledKernel& range = open->result;
    range.record.outcome = model::ProfileOutcome::kReplayFailed;
    range.message = "the range began but had not ended when the program exited";
    inject::LogError("range \"" + range.mangled_name + "\": " + range.message);
    SubmitRange(range);
  } catch (...) {
  }
}

}  // namespace gpuscope::cupti
