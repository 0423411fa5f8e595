#include "cupti/profiler/kernel_profiler.h"

#include <optional>
#include <utility>

#include "cupti/common/counter_access.h"
#include "cupti/common/cupti_error.h"
#include "cupti/common/elapsed_time.h"
#include "cupti/profiler/launch_call.h"
#include "cupti/profiler/launch_nesting.h"
#include "cupti/profiler/profile_progress.h"
#include "cupti/tracing/activity.h"
#include "inject/app_replay_store.h"
#include "inject/log.h"
#include "inject/profiler_time.h"
#include "util/demangle.h"

namespace gpuscope::cupti {

// What one thread carries from a launch's enter callback to its exit callback.
struct KernelProfiler::LaunchInFlight {
  LaunchNesting nesting;
  bool measuring = false;
  ContextRangeProfiler* context = nullptr;
  inject::OwnedProfiledKernel kernel;
  std::uint32_t call_correlation_id = 0;  // the launch call whose callback decided
  // Application replay: kernel records without CUPTI's instrumentation while measured.
  std::optional<SerialKernelRecords> serial_kernels;
  std::unique_lock<std::mutex> lock;  // the profiler's, from enter to exit while measuring
};

// Never destroyed: a launch from a static destructor at exit must not meet a destroyed
// object (thread-local destructors run before atexit handlers).
KernelProfiler::LaunchInFlight& KernelProfiler::ThisThreadsLaunch() {
  thread_local LaunchInFlight* storage = nullptr;
  if (storage == nullptr) storage = new LaunchInFlight();
  return *storage;
}

KernelProfiler::KernelProfiler(const inject::ProfileConfig& config, KernelProfilerHooks hooks)
    : config_(config),
      hooks_(std::move(hooks)),
      selection_(config.filter, config.replay_mode),
      setup_(config_),
      counter_passes_(config.cache_control == contract::CacheControl::kAll, config.restore_memory),
      boundaries_(config.nvtx_include) {}

// The launch's time from its enter callback to the end of its measurement was the
// profiler's: noted so that the launch calls' API records leave it out (inject/profiler_time.h).
void KernelProfiler::Submit(LaunchInFlight& launch) {
  const model::ProfiledKernelRecord& record = launch.kernel.record;
  inject::NoteProfilerTime(record.correlation_id, launch.call_correlation_id, record.start,
                           record.end);
  if (hooks_.submit) hooks_.submit(std::move(launch.kernel));
}

void KernelProfiler::SayUnavailableOnce(const std::string& why) {
  if (said_unavailable_) return;
  said_unavailable_ = true;
  inject::LogError(why + "; kernels are not measured, the program runs on and is traced");
}

// First selected launch in `context`: everything that is done once per context.
ContextRangeProfiler& KernelProfiler::ContextFor(CUcontext context, std::uint32_t device_id) {
  auto found = contexts_.find(context);
  if (found != contexts_.end()) return *found->second;
  auto owned = std::make_unique<ContextRangeProfiler>(setup_, context, device_id);
  ContextRangeProfiler& profiler = *owned;
  contexts_.emplace(context, std::move(owned));
  profiler.Prepare();
  return profiler;
}

bool KernelProfiler::OnEnter(const LaunchCall& call, LaunchInFlight& launch) {
  if (selection_.Exhausted()) return true;
  // The source and counter passes replay the launch with the driver call's parameters: its
  // runtime call leaves the decision (and the measurement) to the driver call nested in it.
  if ((config_.source_counters || own_replay()) && call.is_runtime_call()) return false;
  if (!call.NamesKernelAndContext()) return false;
  const CUpti_CallbackData& data = call.data();
  const std::uint32_t device_id = call.DeviceId();
  LaunchCandidate candidate;
  candidate.mangled_name = data.symbolName;
  candidate.context_id = data.contextUid;
  candidate.device_id = device_id;
  if (selection_.NeedsStream()) {
    std::optional<StreamArgument> stream = call.Stream();
    // A runtime call that hides its stream (<<<>>> in CUDA 13): its driver call tells.
    if (!stream && call.is_runtime_call()) return false;
    if (stream) candidate.stream_id = call.StreamId(*stream);
  }
  SelectedLaunch decision = selection_.Decide(candidate);
  if (!decision.profile) return true;

  launch.lock = std::unique_lock<std::mutex>(mutex_);
  inject::OwnedProfiledKernel& kernel = launch.kernel;
  kernel = inject::OwnedProfiledKernel{};
  // The kernel's trace record carries the outermost (runtime) call's correlation id.
  kernel.record.correlation_id = launch.nesting.RecordCorrelationId(data.correlationId);
  kernel.record.device_id = device_id;
  kernel.record.context_id = data.contextUid;
  kernel.record.stream_id = candidate.stream_id.value_or(0);
  kernel.record.invocation = decision.invocation;
  kernel.record.profile_index = decision.profile_index;
  kernel.record.replay_mode = config_.replay_mode;
  launch.call_correlation_id = data.correlationId;
  kernel.record.start = Now();
  kernel.mangled_name = data.symbolName;
  if (!decision.refusal.empty()) {
    // Never replayed, not even by the source passes: the launch runs as the program made it.
    if (decision.say_refusal) {
      inject::LogError(FunctionBaseName(Demangle(kernel.mangled_name)) + ": " +
                       std::string(decision.refusal));
    }
    SubmitUnmeasured(launch, {std::string(decision.refusal), model::ProfileOutcome::kNotReplayable},
                     /*progress=*/false);
    return true;
  }

  ContextRangeProfiler& context = ContextFor(data.context, device_id);
  kernel.chip = context.chip();
  kernel.record.passes = context.passes();
  // A setup failure of the context (no counters, unsupported device) is permanent; a failed
  // step of one launch is reported and the next launch is tried again.
  ProfileFailure failure = context.failure();
  if (failure.empty() && config_.source_counters) {
    // Before the range profiler of the context is first enabled (in BeginMeasurement): CUPTI
    // samples no PCs once it is (source_passes.h).
    source_.Run(call, device_id, context.chip(), /*can_sample=*/!context.enabled(),
                kernel.record.correlation_id, kernel.source);
  }
  if (failure.empty() && own_replay() && CounterPassesCanMeasure(call)) {
    MeasureByOwnReplay(call, context, launch);
    return true;
  }
  // CUPTI's kernel timing code would be counted with the program's (activity.h).
  if (failure.empty() && setup_.application_replay()) launch.serial_kernels.emplace();
  if (failure.empty()) failure = BeginMeasurement(context, kernel, nullptr);
  if (!failure.empty()) {
    if (failure.outcome == model::ProfileOutcome::kCountersUnavailable) {
      SayUnavailableOnce(failure.message);
    }
    SubmitUnmeasured(launch, failure, /*progress=*/true);
    return true;
  }
  launch.measuring = true;
  launch.context = &context;
  return true;
}

ProfileFailure KernelProfiler::BeginMeasurement(ContextRangeProfiler& context,
                                                const inject::OwnedProfiledKernel& kernel,
                                                const char* range_name) {
  std::string what;
  std::string replay_problem;
  CUptiResult r = context.BeginMeasurement(kernel, what, replay_problem, range_name);
  // The profiler stays enabled after a failed step (see ContextRangeProfiler::Enable: never
  // twice).
  if (r == CUPTI_SUCCESS) {
    return replay_problem.empty()
               ? ProfileFailure{}
               : ProfileFailure{replay_problem, model::ProfileOutcome::kNotReplayable};
  }
  ProfileFailure failure = FailureOf(r, what);
  if (failure.outcome == model::ProfileOutcome::kCountersUnavailable) context.FailForGood(failure);
  return failure;
}

// Kernel replay by gpuscope's own passes (counter_passes.h), all inside the enter callback:
// the program's launch then runs unmeasured, and keeps its place on the timeline.
void KernelProfiler::MeasureByOwnReplay(const LaunchCall& call, ContextRangeProfiler& context,
                                        LaunchInFlight& launch) {
  inject::OwnedProfiledKernel& kernel = launch.kernel;
  CounterPassesOutcome outcome =
      counter_passes_.Run(call, context, kernel.record.correlation_id);
  if (outcome.result != CUPTI_SUCCESS) {
    ProfileFailure failure = FailureOf(outcome.result, outcome.what);
    kernel.record.outcome = failure.outcome;
    kernel.message = failure.message;
    if (failure.outcome == model::ProfileOutcome::kCountersUnavailable) {
      context.FailForGood(failure);
      SayUnavailableOnce(failure.message);
    }
  } else if (!outcome.problem.empty()) {
    kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
    kernel.message = outcome.problem +
                     " (a kernel that waits on other kernels or writes host memory cannot be "
                     "replayed alone: try --replay-mode application -c 1)";
  } else if (outcome.stopped.dropped != 0) {
    kernel.record.outcome = model::ProfileOutcome::kRangeDropped;
    kernel.message = "CUPTI kept no counter data for the launch (" +
                     std::to_string(outcome.stopped.dropped) + " range dropped)";
  } else {
    kernel.record.outcome = model::ProfileOutcome::kMeasured;
    kernel.counter_data = context.counter_data();  // the context's image is reused next time
  }
  if (selection_.FinishSelected()) context.Disable();
  kernel.record.end = Now();
  if (hooks_.progress) PrintProgressLine(kernel);
  Submit(launch);
  launch.lock.unlock();
}

void KernelProfiler::SubmitUnmeasured(LaunchInFlight& launch, const ProfileFailure& failure,
                                      bool progress) {
  launch.serial_kernels.reset();
  inject::OwnedProfiledKernel& kernel = launch.kernel;
  kernel.record.outcome = failure.outcome;
  kernel.message = failure.message;
  kernel.record.end = Now();
  if (progress && hooks_.progress) PrintProgressLine(kernel);
  Submit(launch);
  // Not measured, so not the one whose exit may disable the profiler.
  selection_.FinishSelected();
  launch.lock.unlock();
}

bool KernelProfiler::RecordOutcome(const LaunchCall& call, CUptiResult result,
                                   const std::string& what, const StopResult& stopped,
                                   const ContextRangeProfiler& context,
                                   inject::OwnedProfiledKernel& kernel) {
  int launch_error = 0;
  if (call.Failed(launch_error)) {
    kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
    kernel.message = "the launch returned error " + std::to_string(launch_error);
    return true;
  }
  return RecordMeasurement(result, what, stopped, context, kernel);
}

bool KernelProfiler::RecordMeasurement(CUptiResult result, const std::string& what,
                                       const StopResult& stopped,
                                       const ContextRangeProfiler& context,
                                       inject::OwnedProfiledKernel& kernel) {
  if (result != CUPTI_SUCCESS) {
    kernel.record.outcome = IsUnavailable(result) ? model::ProfileOutcome::kCountersUnavailable
                                                  : model::ProfileOutcome::kReplayFailed;
    kernel.message = IsUnavailable(result) ? UnavailableMessage(result, what)
                                           : what + " failed: " + CuptiResultName(result) +
                                                 " (a kernel that waits on other kernels or "
                                                 "writes host memory cannot be replayed alone: "
                                                 "try --replay-mode application -c 1)";
  } else if (stopped.dropped != 0) {
    kernel.record.outcome = model::ProfileOutcome::kRangeDropped;
    kernel.message = "CUPTI kept no counter data for the launch (" +
                     std::to_string(stopped.dropped) + " range dropped)";
  } else if (setup_.application_replay()) {
    // Every run but the last only adds its pass to the image kept between runs.
    inject::AppReplayStep next = stopped.next;
    next.kernel_name = kernel.mangled_name;
    Status saved = inject::AppReplayStore(config_.app_dir)
                       .Save(kernel.record.profile_index, next, context.counter_data());
    const bool last_run = config_.app_pass + 1 == config_.app_passes;
    if (!saved.ok()) {
      kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
      kernel.message = saved.message();
    } else if (!last_run) {
      return false;
    } else if (!stopped.all_passes_submitted) {
      kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
      kernel.message = "CUPTI needs more passes than the " + std::to_string(config_.app_passes) +
                       " runs planned";
    } else {
      kernel.record.outcome = model::ProfileOutcome::kMeasured;
      kernel.counter_data = context.counter_data();
    }
  } else {
    kernel.record.outcome = model::ProfileOutcome::kMeasured;
    kernel.counter_data = context.counter_data();  // the context's image is reused next time
  }
  return true;
}

void KernelProfiler::OnExit(const LaunchCall& call, LaunchInFlight& launch) {
  launch.measuring = false;
  ContextRangeProfiler& context = *launch.context;
  inject::OwnedProfiledKernel& kernel = launch.kernel;
  std::string what;
  StopResult stopped;
  inject::LogDebug("launch returned");
  CUptiResult result = context.EndMeasurement(what, stopped);
  launch.serial_kernels.reset();
  // This launch is done; the profiler goes once no other selected launch can still need it.
  if (selection_.FinishSelected()) {
    const SteadyClock::time_point disabling = SteadyClock::now();
    context.Disable();
    inject::LogDebug("range profiler disabled: " + Elapsed(disabling));
  }
  kernel.record.end = Now();
  if (!RecordOutcome(call, result, what, stopped, context, kernel)) {
    // A pass of application replay: its time in the launch call was the profiler's too.
    inject::NoteProfilerTime(kernel.record.correlation_id, launch.call_correlation_id,
                             kernel.record.start, kernel.record.end);
    if (hooks_.progress) PrintReplayPassLine(kernel, config_.app_pass + 1, config_.app_passes);
    launch.context = nullptr;
    launch.lock.unlock();
    return;
  }
  if (hooks_.progress) PrintProgressLine(kernel);
  inject::LogDebug("kernel " + std::to_string(kernel.record.profile_index) + " measured in " +
                   std::to_string((kernel.record.end - kernel.record.start) / 1'000'000) + " ms");
  Submit(launch);
  launch.context = nullptr;
  launch.lock.unlock();
}

void KernelProfiler::OnModuleLoaded(const void* cubin, std::size_t size) {
  try {
    source_.OnModuleLoaded(cubin, size);
  } catch (...) {
  }
}

void KernelProfiler::ReleaseSourcePasses() {
  try {
    // Waits for a launch another thread is measuring: its passes end on their own.
    std::lock_guard<std::mutex> lock(mutex_);
    source_.Release();
  } catch (...) {
  }
}

void KernelProfiler::ForgetContext(CUcontext context) {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    if (config_.source_counters) source_.ForgetContext(context);
    counter_passes_.ForgetContext(context);
    auto found = contexts_.find(context);
    if (found == contexts_.end()) return;
    found->second->Disable();
    // The entry goes: a new context at the same address starts afresh. Its profiler object is
    // kept alive (leaked on purpose): a launch of another thread cannot hold it, since
    // measurements take this lock, but nothing must dangle if CUPTI calls back late.
    (void)found->second.release();
    contexts_.erase(found);
  } catch (...) {
  }
}

void KernelProfiler::OnLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                      const CUpti_CallbackData& data) {
  if (app_range()) {
    // Ranges are measured, not launches: a launch is only counted, once (a runtime launch
    // call nests a driver call, which is not counted again).
    thread_local bool in_runtime_launch = false;
    const bool enter = data.callbackSite == CUPTI_API_ENTER;
    if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) in_runtime_launch = enter;
    if (enter && (domain == CUPTI_CB_DOMAIN_RUNTIME_API || !in_runtime_launch)) {
      kernel_launches_.fetch_add(1, std::memory_order_relaxed);
    }
    return;
  }
  LaunchInFlight& launch = ThisThreadsLaunch();
  try {
    const LaunchCall call(domain, cbid, data);
    if (call.is_enter()) {
      if (launch.nesting.Enter(data.correlationId)) {
        const bool decided = OnEnter(call, launch);
        launch.nesting.Decide(decided, launch.measuring);
      }
    } else if (launch.nesting.inside()) {
      if (launch.measuring && launch.nesting.ExitEndsMeasurement()) OnExit(call, launch);
      launch.nesting.Exit();
    }
  } catch (...) {
    // Never into the program. A measurement cut short is stopped (best effort) and recorded
    // as failed, so that neither the kernel nor the context's profiler is lost silently.
    if (launch.measuring && launch.context != nullptr) launch.context->StopAfterFailure();
    if (launch.measuring) {
      try {
        launch.kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
        launch.kernel.message = "gpuscope failed internally while measuring the launch";
        launch.kernel.counter_data.clear();
        Submit(launch);
      } catch (...) {
      }
      try {
        selection_.FinishSelected();
      } catch (...) {
      }
    }
    launch.measuring = false;
    launch.context = nullptr;
    launch.serial_kernels.reset();
    if (launch.lock.owns_lock()) launch.lock.unlock();
  }
}

}  // namespace gpuscope::cupti
