#include "cupti/callbacks.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <vector>

#include "inject/collector.h"
#include "cupti/activity.h"
#include "cupti/capture_callbacks.h"
#include "cupti/api_callback_capture.h"
#include "cupti/backtrace_sites.h"
#include "cupti/cupti_error.h"
#include "cupti/gpu_clock.h"
#include "cupti/gpu_metric_sampler.h"
#include "cupti/kernel_profiler.h"
#include "cupti/launch_call.h"
#include "cupti/own_replay_scope.h"
#include "cupti/source_passes.h"
#include "inject/own_replay_calls.h"
#include "cupti/sticky_error_watch.h"
#include "inject/log.h"
#include "inject/nvtx_start_end_ids.h"

namespace gpuscope::cupti {
namespace {

CUpti_SubscriberHandle g_subscriber = nullptr;
std::atomic<bool> g_ignore_callbacks{false};
// Whether nvtxRangeStart* ids are recorded: only while the tracing kinds (MARKER among them)
// are on, since an id whose range is not recorded would never be taken again.
std::atomic<bool> g_record_range_starts{false};
// Whether NVTX is in the --trace list: the nvtxRangeStart callbacks are never on otherwise.
std::atomic<bool> g_trace_nvtx{true};
// `gpuscope profile`: the kernel profiler the launch callbacks go to, or nullptr. Published
// once by EnableKernelProfiler and never withdrawn: the object belongs to the CuptiBackend,
// which the session keeps until the process ends (CUPTI calls back until then).
std::atomic<KernelProfiler*> g_kernel_profiler{nullptr};
// `gpuscope run --gpu-metrics`: the sampler told of contexts, or nullptr. Published once, never
// withdrawn (owned by the CuptiBackend, which lives until the process ends).
std::atomic<GpuMetricSampler*> g_gpu_metric_sampler{nullptr};
// Told of the process's first sticky error (SetStickyErrorHandler). Published once, before the
// callbacks are enabled, and never destroyed: callbacks may come until the process ends.
std::atomic<const StickyErrorHandler*> g_sticky_error_handler{nullptr};

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

void OnContextCreated(CUcontext context) {
  ProcessGpuClock().NoteContextCreated(context);
  {
    std::lock_guard<std::mutex> lock(g_contexts_mutex);
    LiveContexts().push_back(context);
  }
  if (GpuMetricSampler* sampler = g_gpu_metric_sampler.load(std::memory_order_acquire)) {
    sampler->OnContextCreated(context);
  }
}

void OnContextDestroyStarting(CUcontext context) {
  ProcessGpuClock().ForgetContext(context);
  if (KernelProfiler* profiler = g_kernel_profiler.load(std::memory_order_acquire)) {
    profiler->ForgetContext(context);
  }
  if (GpuMetricSampler* sampler = g_gpu_metric_sampler.load(std::memory_order_acquire)) {
    sampler->OnContextDestroyStarting(context);
  }
  // Deliver the context's finished records and read its loss count while it exists.
  Status flushed = FlushAll(/*forced=*/false);
  if (!flushed.ok()) inject::LogDebug("context destruction: " + flushed.message());
  NoteDropped(TakeDroppedRecords(context));
  std::lock_guard<std::mutex> lock(g_contexts_mutex);
  std::vector<CUcontext>& live = LiveContexts();
  live.erase(std::remove(live.begin(), live.end(), context), live.end());
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

// nvtxRangeStart* returned the id of a start/end range: CUPTI's marker id (verified).
void OnNvtxRangeStarted(const CUpti_NvtxData& nvtx) {
  if (!g_record_range_starts.load(std::memory_order_acquire)) return;
  if (nvtx.functionReturnValue == nullptr) return;
  // nvtxRangeId_t is a uint64_t (nvToolsExt.h); CUPTI's marker ids are 32-bit.
  const auto range_id = *static_cast<const std::uint64_t*>(nvtx.functionReturnValue);
  inject::ProcessNvtxStartEndIds().Add(static_cast<std::uint32_t>(range_id));
}

bool IsProfilerStart(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
          cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000) ||
         (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStart);
}

bool IsProfilerStop(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return (domain == CUPTI_CB_DOMAIN_RUNTIME_API &&
          cbid == CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000) ||
         (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
}

// Runs on the program's threads, inside CUDA calls: nothing may escape it.
void CUPTIAPI OnCallback(void* /*userdata*/, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                         const void* data) {
  if (g_ignore_callbacks.load(std::memory_order_acquire) || data == nullptr) return;
  try {
    if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
      const auto* resource = static_cast<const CUpti_ResourceData*>(data);
      if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) OnContextCreated(resource->context);
      if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
        OnContextDestroyStarting(resource->context);
      }
      if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && resource->resourceDescriptor != nullptr) {
        const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
        if (KernelProfiler* profiler = g_kernel_profiler.load(std::memory_order_acquire)) {
          profiler->OnModuleLoaded(module->pCubin, module->cubinSize);
        }
      }
      return;
    }
    if (domain == CUPTI_CB_DOMAIN_NVTX) {
      const auto* nvtx = static_cast<const CUpti_NvtxData*>(data);
      if (std::find(std::begin(kNvtxRangeStartCallbacks), std::end(kNvtxRangeStartCallbacks),
                    cbid) != std::end(kNvtxRangeStartCallbacks)) {
        OnNvtxRangeStarted(*nvtx);
      }
      // --replay-mode app-range --nvtx-include: the other NVTX callbacks are its own.
      KernelProfiler* profiler = g_kernel_profiler.load(std::memory_order_acquire);
      if (profiler != nullptr && profiler->app_range()) profiler->OnNvtxCallback(cbid, *nvtx);
      return;
    }
    if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
    const auto* api = static_cast<const CUpti_CallbackData*>(data);
    // gpuscope's own replay of a launch (source counters): not the program's calls.
    if (ReplayingOnThisThread()) {
      if (api->callbackSite == CUPTI_API_ENTER && !IsReplayedProgramCall(api->correlationId)) {
        inject::NoteOwnReplayCall(api->correlationId);
      }
      return;
    }
    OnBacktraceSiteCallback(domain, cbid, *api);  // --backtrace; before the calls that return below
    // --api-capture callback: every runtime and driver call passes here (the others return
    // at once: the capture has not started).
    OnApiCallback(domain, cbid, *api);
    if (std::optional<CaptureCall> capture = CaptureCallOf(domain, cbid)) {
      OnStreamCaptureCallback(*capture, *api);
      return;
    }
    if (IsStickyErrorWatchedCall(domain, cbid)) {
      std::optional<StickyErrorCall> error = OnStickyErrorWatchedCall(domain, *api);
      const StickyErrorHandler* handler = g_sticky_error_handler.load(std::memory_order_acquire);
      if (error && handler != nullptr) (*handler)(*error);
      return;
    }
    KernelProfiler* profiler = g_kernel_profiler.load(std::memory_order_acquire);
    if (profiler != nullptr && IsKernelLaunchCallback(domain, cbid)) {
      profiler->OnLaunchCallback(domain, cbid, *api);
      return;
    }
    // app-range: a range begins at cudaProfilerStart's exit and ends at cudaProfilerStop's
    // enter (range_boundaries.h).
    if (profiler != nullptr && profiler->app_range() &&
        (IsProfilerStart(domain, cbid) || IsProfilerStop(domain, cbid))) {
      profiler->OnProfilerApiCallback(domain, cbid, *api);
    }
    if (api->callbackSite != CUPTI_API_EXIT) return;
    if (IsProfilerStart(domain, cbid)) OnProfilerStart();
    if (IsProfilerStop(domain, cbid)) OnProfilerStop();
  } catch (...) {
  }
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
  return EnableBacktraceSites(g_subscriber, stacks);
}

void SetStickyErrorHandler(StickyErrorHandler handler) {
  if (g_sticky_error_handler.load() != nullptr) return;  // once per process
  g_sticky_error_handler.store(new StickyErrorHandler(std::move(handler)),
                               std::memory_order_release);
}

void SetGpuMetricSampler(GpuMetricSampler& sampler) {
  GpuMetricSampler* none = nullptr;
  (void)g_gpu_metric_sampler.compare_exchange_strong(none, &sampler);  // once per process
}

Status EnableKernelProfiler(KernelProfiler& profiler) {
  if (g_subscriber == nullptr) return Status::Error("CUPTI is not subscribed");
  if (g_kernel_profiler.load() != nullptr) {
    return Status::Error("the kernel profiler was started twice");
  }
  // cuptiProfilerInitialize waits for the first selected launch: here we are inside cuInit,
  // where it fails (CUPTI_ERROR_UNKNOWN on the H200).
  GPUSCOPE_RETURN_IF_ERROR(WatchKernelLaunches(g_subscriber));
  g_kernel_profiler.store(&profiler, std::memory_order_release);
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

void IgnoreCallbacksFromNowOn() { g_ignore_callbacks.store(true, std::memory_order_release); }

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
