#include "cupti/callbacks.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "cupti/activity.h"
#include "cupti/api_callback_capture.h"
#include "cupti/backtrace_sites.h"
#include "cupti/callback_table.h"
#include "cupti/capture_callbacks.h"
#include "cupti/cupti_error.h"
#include "cupti/gpu_clock.h"
#include "cupti/gpu_metric_sampler.h"
#include "cupti/kernel_profiler.h"
#include "cupti/launch_call.h"
#include "cupti/own_replay_scope.h"
#include "cupti/profiler_api_calls.h"
#include "cupti/sticky_error_watch.h"
#include "inject/collector.h"
#include "inject/log.h"
#include "inject/nvtx_start_end_ids.h"

namespace gpuscope::cupti {
namespace {

CUpti_SubscriberHandle g_subscriber = nullptr;
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

std::string LoadedCuptiPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cuptiGetVersion), &info) != 0 && info.dli_fname != nullptr) {
    return info.dli_fname;
  }
  return "libcupti";
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
        cuptiEnableCallback(on ? 1 : 0, g_subscriber, CUPTI_CB_DOMAIN_NVTX, cbid),
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

// Runs on the program's threads, inside CUDA calls: the table lets nothing escape it.
void CUPTIAPI OnCallback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const void* data) {
  ProcessCallbackTable().Dispatch(domain, cbid, data);
}

Status Enable(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char* what) {
  return CuptiStatus(cuptiEnableCallback(1, g_subscriber, domain, cbid), what);
}

}  // namespace

Status Subscribe() {
  std::uint32_t version = 0;
  CUptiResult result = cuptiGetVersion(&version);
  if (result != CUPTI_SUCCESS) {
    return Status::Error("cannot query the CUPTI version (" + CuptiResultName(result) +
                         "); gpuscope stands down and records nothing");
  }
  if (version < CUPTI_API_VERSION) {
    return Status::Error("the CUPTI loaded in this process (" + LoadedCuptiPath() +
                         ", API version " + std::to_string(version) +
                         ") is older than the version " + std::to_string(CUPTI_API_VERSION) +
                         " gpuscope was built against; gpuscope stands down and records nothing");
  }
  char previous_owner[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = {};
  CUpti_SubscriberParams params{};
  params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
  params.subscriberName = "gpuscope";
  params.oldSubscriberName = previous_owner;
  params.oldSubscriberSize = CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN;
  result = cuptiSubscribe_v2(&g_subscriber, OnCallback, nullptr, &params);
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
    // CUPTI writes "CUPTI for <name>", or "CUPTI for <not provided>" for a client that
    // subscribed without a name (the old cuptiSubscribe).
    std::string owner = previous_owner;
    if (owner.empty() || owner.find("<not provided>") != std::string::npos) {
      owner = "another CUPTI client (" + (owner.empty() ? std::string("unnamed") : owner) + ")";
    }
    return Status::Error("CUPTI is already in use by " + owner +
                         " in this process; gpuscope stands down and records nothing");
  }
  if (result != CUPTI_SUCCESS) {
    return Status::Error("CUPTI could not start (cuptiSubscribe_v2: " + CuptiResultName(result) +
                         "); gpuscope records nothing in this process");
  }
  inject::LogDebug("subscribed to CUPTI " + std::to_string(version) + " (" + LoadedCuptiPath() +
                   ")");
  // The features on whenever CUPTI is subscribed, before any of their callbacks is enabled.
  CallbackTable& table = ProcessCallbackTable();
  table.Register(CallbackSlot::kContextsArrive, g_contexts_arrive);
  table.Register(CallbackSlot::kNvtxRangeStarts, g_nvtx_range_starts);
  table.Register(CallbackSlot::kOwnReplay, OwnReplayCallbacks());
  table.Register(CallbackSlot::kStreamCapture, StreamCaptureCallbacks());
  table.Register(CallbackSlot::kStickyErrors, StickyErrorCallbacks());
  table.Register(CallbackSlot::kProfilerControl, g_profiler_control);
  table.Register(CallbackSlot::kContextsLeave, g_contexts_leave);
  return Status();
}

void Unsubscribe() {
  if (g_subscriber == nullptr) return;
  cuptiUnsubscribe(g_subscriber);
  g_subscriber = nullptr;
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
    enable_status(Enable(domain, cbid, what));
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
  enable_status(WatchStickyErrors(g_subscriber));
  enable_status(WatchStreamCaptures(g_subscriber));
  // Otherwise cudaProfilerStart turns them on.
  if (tracing_now) {
    Status status = SetRangeStartCallbacks(true);
    if (!status.ok() && first_error.ok()) first_error = status;
  }
  return first_error;
}

Status EnableApiCallbackCapture(bool recording_now) {
  if (g_subscriber == nullptr) return Status::Error("CUPTI is not subscribed");
  BeginApiCallbackCapture(recording_now);
  ProcessCallbackTable().Register(CallbackSlot::kApiCapture, ApiCaptureCallbacks());
  Status first_error = CuptiStatus(cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API),
                                   "enabling the runtime API callbacks");
  Status driver = CuptiStatus(cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API),
                              "enabling the driver API callbacks");
  if (first_error.ok()) first_error = driver;
  if (!first_error.ok()) return Status::Error(first_error.message() + "; API calls are not recorded");
  inject::LogDebug("API calls captured by callbacks");
  return Status();
}

Status EnableBacktraces(inject::CallStacks& stacks) {
  if (g_subscriber == nullptr) return Status::Error("CUPTI is not subscribed");
  // Before the sites' callbacks are enabled; it takes no stack until `stacks` is set.
  ProcessCallbackTable().Register(CallbackSlot::kBacktraces, BacktraceSiteCallbacks());
  return EnableBacktraceSites(g_subscriber, stacks);
}

void SetGpuMetricSampler(GpuMetricSampler& sampler) {
  ProcessCallbackTable().Register(CallbackSlot::kGpuMetricSampler, sampler);  // once per process
}

Status EnableKernelProfiler(KernelProfiler& profiler) {
  if (g_subscriber == nullptr) return Status::Error("CUPTI is not subscribed");
  if (ProcessCallbackTable().Registered(CallbackSlot::kKernelProfiler)) {
    return Status::Error("the kernel profiler was started twice");
  }
  // cuptiProfilerInitialize waits for the first selected launch: here we are inside cuInit,
  // where it fails (CUPTI_ERROR_UNKNOWN on the H200).
  GPUSCOPE_RETURN_IF_ERROR(WatchKernelLaunches(g_subscriber));
  ProcessCallbackTable().Register(CallbackSlot::kKernelProfiler, profiler);
  if (profiler.source_counters()) {
    GPUSCOPE_RETURN_IF_ERROR(Enable(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED,
                                    "enabling the module-loaded callback"));
  }
  if (profiler.app_range()) {
    // The range boundaries: cudaProfilerStart/Stop (also enabled for --profile-from-start
    // off; enabling twice is harmless), or the NVTX callbacks --nvtx-include needs.
    GPUSCOPE_RETURN_IF_ERROR(Enable(CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                                    "enabling the cudaProfilerStart callback"));
    GPUSCOPE_RETURN_IF_ERROR(Enable(CUPTI_CB_DOMAIN_RUNTIME_API,
                                    CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
                                    "enabling the cudaProfilerStop callback"));
    GPUSCOPE_RETURN_IF_ERROR(Enable(CUPTI_CB_DOMAIN_DRIVER_API,
                                    CUPTI_DRIVER_TRACE_CBID_cuProfilerStart,
                                    "enabling the cuProfilerStart callback"));
    GPUSCOPE_RETURN_IF_ERROR(Enable(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
                                    "enabling the cuProfilerStop callback"));
    for (CUpti_CallbackId cbid : profiler.range_boundaries().NvtxCallbacks()) {
      GPUSCOPE_RETURN_IF_ERROR(
          Enable(CUPTI_CB_DOMAIN_NVTX, cbid, "enabling the NVTX range callbacks"));
    }
  }
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

DriverCallbacksOn::DriverCallbacksOn(std::span<const CUpti_CallbackId> cbids) {
  if (g_subscriber == nullptr) {
    status_ = Status::Error("CUPTI is not subscribed");
    return;
  }
  for (CUpti_CallbackId cbid : cbids) {
    std::uint32_t on = 0;
    status_ = CuptiStatus(cuptiGetCallbackState(&on, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid),
                          "cuptiGetCallbackState");
    if (!status_.ok()) return;
    if (on != 0) continue;  // the kernel profiler's launch callbacks: left on after the scope
    status_ = Enable(CUPTI_CB_DOMAIN_DRIVER_API, cbid, "enabling the callbacks of gpuscope's own calls");
    if (!status_.ok()) return;
    enabled_.push_back(cbid);
  }
}

DriverCallbacksOn::~DriverCallbacksOn() {
  for (CUpti_CallbackId cbid : enabled_) {
    cuptiEnableCallback(0, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid);
  }
}

}  // namespace gpuscope::cupti
