#include "cupti/tracing/sticky_error_watch.h"

#include <atomic>

#include "cupti/common/cupti_error.h"
#include "model/sticky_errors.h"

namespace gpuscope::cupti {
namespace {

constexpr CUpti_CallbackId kRuntimeCalls[] = {
    CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaThreadSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaStreamQuery_ptsz_v7000,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventSynchronize_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020,
    CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000,
};

constexpr CUpti_CallbackId kDriverCalls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize_v2,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuStreamQuery,
    CUPTI_DRIVER_TRACE_CBID_cuStreamQuery_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuEventSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuEventQuery,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpy_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2_ptds,
};

template <std::size_t N>
bool Contains(const CUpti_CallbackId (&ids)[N], CUpti_CallbackId cbid) {
  for (CUpti_CallbackId id : ids) {
    if (id == cbid) return true;
  }
  return false;
}

// Watched calls this thread is inside of (a runtime call and the driver call it makes).
thread_local int t_watched_depth = 0;
std::atomic<bool> g_first_error_returned{false};
// Told of the process's first sticky error (SetStickyErrorHandler). Published once and never
// destroyed: callbacks may come until the process ends.
std::atomic<const StickyErrorHandler*> g_handler{nullptr};

bool ConsumeWatchedCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr || !IsStickyErrorWatchedCall(domain, cbid)) return false;
  std::optional<StickyErrorCall> error = OnStickyErrorWatchedCall(domain, *api);
  const StickyErrorHandler* handler = g_handler.load(std::memory_order_acquire);
  if (error && handler != nullptr) (*handler)(*error);
  return true;
}

constinit CallbackFunction g_sticky_error_callbacks{&ConsumeWatchedCall};

}  // namespace

void SetStickyErrorHandler(StickyErrorHandler handler) {
  if (g_handler.load() != nullptr) return;  // once per process
  g_handler.store(new StickyErrorHandler(std::move(handler)), std::memory_order_release);
}

CallbackHandler& StickyErrorCallbacks() { return g_sticky_error_callbacks; }

bool IsStickyErrorWatchedCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) return Contains(kRuntimeCalls, cbid);
  if (domain == CUPTI_CB_DOMAIN_DRIVER_API) return Contains(kDriverCalls, cbid);
  return false;
}

Status WatchStickyErrors(CUpti_SubscriberHandle subscriber) {
  Status first_error;
  auto enable = [&](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
    Status status = CuptiStatus(cuptiEnableCallback(1, subscriber, domain, cbid),
                                "enabling the callbacks of the synchronising calls");
    if (!status.ok() && first_error.ok()) first_error = status;
  };
  for (CUpti_CallbackId cbid : kRuntimeCalls) enable(CUPTI_CB_DOMAIN_RUNTIME_API, cbid);
  for (CUpti_CallbackId cbid : kDriverCalls) enable(CUPTI_CB_DOMAIN_DRIVER_API, cbid);
  return first_error;
}

std::optional<StickyErrorCall> OnStickyErrorWatchedCall(CUpti_CallbackDomain domain,
                                                        const CUpti_CallbackData& data) {
  if (data.callbackSite == CUPTI_API_ENTER) {
    ++t_watched_depth;
    return std::nullopt;
  }
  // An exit whose enter came before the callbacks were on counts as outermost.
  if (t_watched_depth > 0) --t_watched_depth;
  if (t_watched_depth > 0 || data.functionReturnValue == nullptr) return std::nullopt;
  // cudaError_t and CUresult are both int-sized enums.
  const auto code = static_cast<std::int32_t>(*static_cast<const int*>(data.functionReturnValue));
  if (model::FindStickyError(code) == nullptr) return std::nullopt;
  if (g_first_error_returned.exchange(true, std::memory_order_acq_rel)) return std::nullopt;
  StickyErrorCall call;
  call.api = data.functionName != nullptr ? data.functionName : "?";
  call.domain =
      domain == CUPTI_CB_DOMAIN_DRIVER_API ? model::ApiDomain::kDriver : model::ApiDomain::kRuntime;
  call.code = code;
  return call;
}

void ForgetStickyErrorForTesting() {
  g_first_error_returned.store(false);
  t_watched_depth = 0;
}

}  // namespace gpuscope::cupti
