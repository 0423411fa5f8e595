#include "cupti/callbacks.h"

#include <cupti.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "cupti/common/callback_table.h"
#include "cupti/common/cupti_error.h"
#include "cupti/common/profiler_api_calls.h"
#include "cupti/common/subscriber.h"
#include "cupti/pm_sampling/gpu_metric_sampler.h"
#include "cupti/profiler/kernel_profiler.h"
#include "cupti/profiler/launch_call.h"
#include "cupti/tracing/activity.h"
#include "cupti/tracing/api_callback_capture.h"
#include "cupti/tracing/backtrace_sites.h"
#include "cupti/tracing/capture_callbacks.h"
#include "cupti/tracing/gpu_clock.h"
#include "cupti/tracing/own_replay_scope.h"
#include "cupti/tracing/sticky_error_watch.h"
#include "inject/collector.h"
#include "inject/log.h"
#include "inject/nvtx_start_end_ids.h"

namespace gpuscope::cupti {
namespace {

// Whether nvtxRangeStart* ids are recorded: only while the tracing kinds (MARKER among them)
// are on, since an id whose range is not recorded would never be taken again.
std::atomic<bool> g_record_range_starts{false};
// Whether NVTX is in the --trace list: the nvtxRangeStart callbacks are never on otherwise.
std::atomic<bool> g_trace_nvtx{true};

// Never destroyed: CUDA destroys its contexts after our exit handler, and after this
// library's static destructors have run (they were registered before our atexit handler).
std::mutex g_contexts_mutex;  // trivially destructible
std::vector<CUcontext>& LiveContexts() {
  static auto* contexts = new std::vector<CUcontext>();
  return *contexts;
}

void NoteDropped(std::uint64_t dropped) {
  if (dropped == 0) return;
  if (inject::Collector* collector = BufferCollector()) collector->AddDroppedRecords(dropped);
}

// kContextsArrive: the context has its GPU clock entry and is in the live list before any
// feature hears of it; on its destruction the clock forgets it first.
bool OnContextsArrive(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE) return false;
  const CUcontext context = static_cast<const CUpti_ResourceData*>(data)->context;
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
    ProcessGpuClock().NoteContextCreated(context);
    std::lock_guard<std::mutex> lock(g_contexts_mutex);
    LiveContexts().push_back(context);
  } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    ProcessGpuClock().ForgetContext(context);
  }
  return false;
}

// kContextsLeave: once every feature forgot the context, its finished records are delivered
// and its loss count read while it exists.
bool OnContextsLeave(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE || cbid != CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
    return false;
  }
  const CUcontext context = static_cast<const CUpti_ResourceData*>(data)->context;
  Status flushed = FlushAll(/*forced=*/false);
  if (!flushed.ok()) inject::LogDebug("context destruction: " + flushed.message());
  NoteDropped(TakeDroppedRecords(context));
  std::lock_guard<std::mutex> lock(g_contexts_mutex);
  std::vector<CUcontext>& live = LiveContexts();
  live.erase(std::remove(live.begin(), live.end(), context), live.end());
  return false;
}

constexpr CUpti_CallbackId kNvtxRangeStartCallbacks[] = {
    CUPTI_CBID_NVTX_nvtxRangeStartA,
    CUPTI_CBID_NVTX_nvtxRangeStartW,
    CUPTI_CBID_NVTX_nvtxRangeStartEx,
    CUPTI_CBID_NVTX_nvtxDomainRangeStartEx,
};

// Turns the nvtxRangeStart* callbacks on or off with the tracing kinds. The flag alone
// keeps ids out of the registry; turning the callbacks off also saves their cost.
Status SetRangeStartCallbacks(bool on) {
  if (!g_trace_nvtx.load(std::memory_order_acquire)) return Status();
  g_record_range_starts.store(on, std::memory_order_release);
  Status first_error;
  for (CUpti_CallbackId cbid : kNvtxRangeStartCallbacks) {
    Status status = CuptiStatus(
        cuptiEnableCallback(on ? 1 : 0, Subscriber(), CUPTI_CB_DOMAIN_NVTX, cbid),
        on ? "enabling the nvtxRangeStart callbacks" : "disabling the nvtxRangeStart callbacks");
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

void OnProfilerStart() {
  if (TracingKindsEnabled()) return;
  Status enabled = EnableTracingKinds();
  if (!enabled.ok()) inject::LogError(enabled.message());
  Status callbacks = SetRangeStartCallbacks(true);
  if (!callbacks.ok()) inject::LogError(callbacks.message());
  SetApiCallbackRecording(true);
  inject::LogDebug("cudaProfilerStart: recording");
}

void OnProfilerStop() {
  if (!TracingKindsEnabled()) return;
  SetApiCallbackRecording(false);
  Status flushed = FlushAll(/*forced=*/false);
  if (!flushed.ok()) inject::LogDebug("cudaProfilerStop: " + flushed.message());
  Status callbacks = SetRangeStartCallbacks(false);
  if (!callbacks.ok()) inject::LogDebug("cudaProfilerStop: " + callbacks.message());
  DisableTracingKinds();
  inject::LogDebug("cudaProfilerStop: not recording");
}

// kNvtxRangeStarts: nvtxRangeStart* returned the id of a start/end range, CUPTI's marker id
// (verified).
bool OnNvtxRangeStarted(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (domain != CUPTI_CB_DOMAIN_NVTX ||
      std::find(std::begin(kNvtxRangeStartCallbacks), std::end(kNvtxRangeStartCallbacks), cbid) ==
          std::end(kNvtxRangeStartCallbacks)) {
    return false;
  }
  if (!g_record_range_starts.load(std::memory_order_acquire)) return false;
  const auto& nvtx = *static_cast<const CUpti_NvtxData*>(data);
  if (nvtx.functionReturnValue == nullptr) return false;
  // nvtxRangeId_t is a uint64_t (nvToolsExt.h); CUPTI's marker ids are 32-bit.
  const auto range_id = *static_cast<const std::uint64_t*>(nvtx.functionReturnValue);
  inject::ProcessNvtxStartEndIds().Add(static_cast<std::uint32_t>(range_id));
  return false;
}

// kProfilerControl: the exits of cudaProfilerStart/Stop (runtime or driver) turn the tracing
// kinds on and off.
bool OnProfilerControl(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr || api->callbackSite != CUPTI_API_EXIT) return false;
  if (IsProfilerStartCall(domain, cbid)) OnProfilerStart();
  if (IsProfilerStopCall(domain, cbid)) OnProfilerStop();
  return false;
}

// The handlers of the features that are on whenever CUPTI is subscribed. Constant-initialised
// and trivially destructible, like the table: callbacks come until the process ends.
constinit CallbackFunction g_contexts_arrive{&OnContextsArrive};
constinit CallbackFunction g_nvtx_range_starts{&OnNvtxRangeStarted};
constinit CallbackFunction g_profiler_control{&OnProfilerControl};
constinit CallbackFunction g_contexts_leave{&OnContextsLeave};

}  // namespace

void RegisterAlwaysOnCallbacks() {
  CallbackTable& table = ProcessCallbackTable();
  table.Register(CallbackSlot::kContextsArrive, g_contexts_arrive);
  table.Register(CallbackSlot::kNvtxRangeStarts, g_nvtx_range_starts);
  table.Register(CallbackSlot::kOwnReplay, OwnReplayCallbacks());
  table.Register(CallbackSlot::kStreamCapture, StreamCaptureCallbacks());
  table.Register(CallbackSlot::kStickyErrors, StickyErrorCallbacks());
  table.Register(CallbackSlot::kProfilerControl, g_profiler_control);
  table.Register(CallbackSlot::kContextsLeave, g_contexts_leave);
}

Status EnableCallbacks(bool profiler_control, bool tracing_now, bool trace_nvtx) {
  g_trace_nvtx.store(trace_nvtx, std::memory_order_release);
  // Each group is independent: a failure is reported (the first one) but does not keep the
  // others from being enabled.
  Status first_error;
  auto enable_status = [&](Status status) {
    if (!status.ok() && first_error.ok()) first_error = status;
  };
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char* what) {
    enable_status(EnableCallback(domain, cbid, what));
  };
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED,
         "enabling the context-created callback");
  enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
         "enabling the context-destroy callback");
  if (profiler_control) {
    enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
           "enabling the cudaProfilerStart callback");
    enable(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
           "enabling the cudaProfilerStop callback");
    enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
           "enabling the cuProfilerStart callback");
    enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
           "enabling the cuProfilerStop callback");
  }
  enable_status(WatchStickyErrors(Subscriber()));
  enable_status(WatchStreamCaptures(Subscriber()));
  // Otherwise cudaProfilerStart turns them on.
  if (tracing_now) {
    Status status = SetRangeStartCallbacks(true);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

Status EnableApiCallbackCapture(bool recording_now) {
  if (Subscriber() == nullptr) return Status::Error("CUPTI is not subscribed");
  BeginApiCallbackCapture(recording_now);
  ProcessCallbackTable().Register(CallbackSlot::kApiCapture, ApiCaptureCallbacks());
  Status first_error = CuptiStatus(cuptiEnableDomain(1, Subscriber(), CUPTI_CB_DOMAIN_RUNTIME_API),
                                   "enabling the runtime API callbacks");
  Status driver = CuptiStatus(cuptiEnableDomain(1, Subscriber(), CUPTI_CB_DOMAIN_DRIVER_API),
                              "enabling the driver API callbacks");
  if (first_error.ok()) first_error = driver;
  if (!first_error.ok()) return Status::Error(first_error.message() + "; API calls are not recorded");
  inject::LogDebug("API calls captured by callbacks");
  return Status();
}

Status EnableBacktraces(inject::CallStacks& stacks) {
  if (Subscriber() == nullptr) return Status::Error("CUPTI is not subscribed");
  // Before the sites' callbacks are enabled; it takes no stack until `stacks` is set.
  ProcessCallbackTable().Register(CallbackSlot::kBacktraces, BacktraceSiteCallbacks());
  return EnableBacktraceSites(Subscriber(), stacks);
}

void SetGpuMetricSampler(GpuMetricSampler& sampler) {
  ProcessCallbackTable().Register(CallbackSlot::kGpuMetricSampler, sampler);  // once per process
}

Status EnableKernelProfiler(KernelProfiler& profiler) {
  if (Subscriber() == nullptr) return Status::Error("CUPTI is not subscribed");
  if (ProcessCallbackTable().Registered(CallbackSlot::kKernelProfiler)) {
    return Status::Error("the kernel profiler was started twice");
  }
  // cuptiProfilerInitialize waits for the first selected launch: here we are inside cuInit,
  // where it fails (CUPTI_ERROR_UNKNOWN on the H200).
  GPUSCOPE_RETURN_IF_ERROR(WatchKernelLaunches(Subscriber()));
  if (profiler.source_counters()) {
    GPUSCOPE_RETURN_IF_ERROR(EnableCallback(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED,
                                    "enabling the module-loaded callback"));
  }
  if (profiler.app_range()) {
    // The range boundaries: cudaProfilerStart/Stop (also enabled for --profile-from-start
    // off; enabling twice is harmless), or the NVTX callbacks --nvtx-include needs.
    GPUSCOPE_RETURN_IF_ERROR(EnableCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                                    "enabling the cudaProfilerStart callback"));
    GPUSCOPE_RETURN_IF_ERROR(EnableCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
                                    "enabling the cudaProfilerStop callback"));
    GPUSCOPE_RETURN_IF_ERROR(EnableCallback(CUPTI_CB_DOMAIN_DRIVER_API,
                                    CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
                                    "enabling the cuProfilerStart callback"));
    GPUSCOPE_RETURN_IF_ERROR(EnableCallback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
                                    "enabling the cuProfilerStop callback"));
    for (CUpti_CallbackId cbid : profiler.range_boundaries().NvtxCallbacks()) {
      GPUSCOPE_RETURN_IF_ERROR(
          EnableCallback(CUPTI_CB_DOMAIN_NVTX, cbid, "enabling the NVTX range callbacks"));
    }
  }
  // Registered last: on an error above the caller destroys the profiler, which the table
  // must then never have seen (a slot is never withdrawn). Nothing is missed meanwhile: we are
  // inside cuInit, before the program can launch, load a module or open a range.
  ProcessCallbackTable().Register(CallbackSlot::kKernelProfiler, profiler);
  inject::LogDebug("kernel profiler: " + std::to_string(profiler.metric_count()) + " metrics");
  return Status();
}

std::uint64_t TakeDroppedRecordsOfLiveContexts() {
  std::vector<CUcontext> contexts;
  {
    std::lock_guard<std::mutex> lock(g_contexts_mutex);
    contexts = LiveContexts();
  }
  std::uint64_t total = TakeDroppedRecords(nullptr);
  for (CUcontext context : contexts) {
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, 0, &dropped) == CUPTI_SUCCESS) total += dropped;
  }
  return total;
}

void IgnoreCallbacksFromNowOn() { ProcessCallbackTable().IgnoreFromNowOn(); }

std::vector<CUcontext> LiveContextsNow() {
  std::lock_guard<std::mutex> lock(g_contexts_mutex);
  return LiveContexts();
}

}  // namespace gpuscope::cupti
