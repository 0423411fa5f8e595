#include "cupti/tracing/capture_callbacks.h"

#include <cstddef>

#include "cupti/common/cupti_error.h"
#include "inject/capture_gate.h"

namespace gpuscope::cupti {
namespace {

struct CaptureCallback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  CaptureCall call;
};

constexpr CaptureCallback kCaptureCallbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_RUNTIME_API,
     CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030, CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000,
     CaptureCall::kEnd},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_ptsz_v10000,
     CaptureCall::kEnd},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture, CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
     CaptureCall::kBegin},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture, CaptureCall::kEnd},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuStreamEndCapture_ptsz,
     CaptureCall::kEnd},
};

// Every one of these calls takes its stream first: the parameters are read as that (the
// parameter structs come with cupti.h).
static_assert(offsetof(cuStreamBeginCapture_v2_params, hStream) == 0);
static_assert(offsetof(cuStreamBeginCaptureToGraph_params, hStream) == 0);
static_assert(offsetof(cuStreamEndCapture_params, hStream) == 0);
static_assert(offsetof(cudaStreamBeginCapture_v10000_params, stream) == 0);
static_assert(offsetof(cudaStreamBeginCaptureToGraph_v12030_params, stream) == 0);
static_assert(offsetof(cudaStreamEndCapture_v10000_params, stream) == 0);

std::uintptr_t StreamOf(const CUpti_CallbackData& data) {
  if (data.functionParams == nullptr) return 0;
  return reinterpret_cast<std::uintptr_t>(*static_cast<const CUstream*>(data.functionParams));
}

// cudaSuccess and CUDA_SUCCESS are both 0.
bool Succeeded(const CUpti_CallbackData& data) {
  return data.functionReturnValue != nullptr &&
         *static_cast<const int*>(data.functionReturnValue) == 0;
}

}  // namespace

std::optional<CaptureCall> CaptureCallOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  for (const CaptureCallback& callback : kCaptureCallbacks) {
    if (callback.domain == domain && callback.cbid == cbid) return callback.call;
  }
  return std::nullopt;
}

Status WatchStreamCaptures(CUpti_SubscriberHandle subscriber) {
  for (const CaptureCallback& callback : kCaptureCallbacks) {
    GPUSCOPE_RETURN_IF_ERROR(
        CuptiStatus(cuptiEnableCallback(1, subscriber, callback.domain, callback.cbid),
                    "enabling the stream-capture callbacks"));
  }
  return Status();
}

void OnStreamCaptureCallback(CaptureCall call, const CUpti_CallbackData& data) {
  inject::CaptureGate& gate = inject::ProcessCaptureGate();
  if (call == CaptureCall::kBegin) {
    if (data.callbackSite == CUPTI_API_ENTER) {
      gate.BeginEntered();
    } else {
      gate.BeginReturned(StreamOf(data), Succeeded(data));
    }
  } else if (data.callbackSite == CUPTI_API_EXIT) {
    gate.EndReturned(StreamOf(data));
  }
}

namespace {

bool ConsumeStreamCaptureCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const void* data) {
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr) return false;
  std::optional<CaptureCall> capture = CaptureCallOf(domain, cbid);
  if (!capture) return false;
  OnStreamCaptureCallback(*capture, *api);
  return true;
}

constinit CallbackFunction g_stream_capture_callbacks{&ConsumeStreamCaptureCall};

}  // namespace

CallbackHandler& StreamCaptureCallbacks() { return g_stream_capture_callbacks; }

}  // namespace gpuscope::cupti
