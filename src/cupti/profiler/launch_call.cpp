#include "cupti/profiler/launch_call.h"

#include <string>

#include "cupti/common/cupti_error.h"

namespace gpuscope::cupti {
namespace {

struct LaunchCallback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
};

// Every call that launches one kernel. CUDA 13's <<<>>> goes through __cudaLaunchKernel.
// Graph launches are not here: their kernels run as one graph (measured per node only by
// kernel-level replay of the graph, which CUPTI does not offer in auto range mode).
constexpr LaunchCallback kLaunchCallbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
};

std::optional<StreamArgument> StreamOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                       const void* params) {
  if (params == nullptr) return std::nullopt;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (cbid) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
        return StreamArgument{static_cast<const cudaLaunchKernel_v7000_params*>(params)->stream};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        return StreamArgument{
            static_cast<const cudaLaunchKernel_ptsz_v7000_params*>(params)->stream, true};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
        return StreamArgument{
            static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(params)->stream};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        return StreamArgument{
            static_cast<const cudaLaunchCooperativeKernel_ptsz_v9000_params*>(params)->stream,
            true};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060: {
        const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(params);
        if (p->config == nullptr) return std::nullopt;
        return StreamArgument{p->config->stream};
      }
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const auto* p = static_cast<const cudaLaunchKernelExC_ptsz_v11060_params*>(params);
        if (p->config == nullptr) return std::nullopt;
        return StreamArgument{p->config->stream, true};
      }
      default:
        return std::nullopt;
    }
  }
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      return StreamArgument{static_cast<const cuLaunchKernel_params*>(params)->hStream};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return StreamArgument{static_cast<const cuLaunchKernel_ptsz_params*>(params)->hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return StreamArgument{static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return StreamArgument{
          static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      if (p->config == nullptr) return std::nullopt;
      return StreamArgument{p->config->hStream};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_ptsz_params*>(params);
      if (p->config == nullptr) return std::nullopt;
      return StreamArgument{p->config->hStream, true};
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

bool IsKernelLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  for (const LaunchCallback& launch : kLaunchCallbacks) {
    if (launch.domain == domain && launch.cbid == cbid) return true;
  }
  return false;
}

Status WatchKernelLaunches(CUpti_SubscriberHandle subscriber) {
  for (const LaunchCallback& launch : kLaunchCallbacks) {
    CUptiResult r = cuptiEnableCallback(1, subscriber, launch.domain, launch.cbid);
    if (r != CUPTI_SUCCESS) {
      return Status::Error("cannot watch kernel launches (cuptiEnableCallback: " +
                           CuptiResultName(r) + "); kernels are not measured");
    }
  }
  return Status();
}

bool LaunchCall::NamesKernelAndContext() const {
  return data_.symbolName != nullptr && *data_.symbolName != '\0' && data_.context != nullptr;
}

std::uint32_t LaunchCall::DeviceId() const {
  std::uint32_t device_id = 0;
  cuptiGetDeviceId(data_.context, &device_id);
  return device_id;
}

std::optional<StreamArgument> LaunchCall::Stream() const {
  return StreamOf(domain_, cbid_, data_.functionParams);
}

std::optional<std::uint32_t> LaunchCall::StreamId(const StreamArgument& stream) const {
  std::uint32_t stream_id = 0;
  if (cuptiGetStreamIdEx(data_.context, static_cast<CUstream>(stream.stream),
                         stream.per_thread ? 1 : 0, &stream_id) != CUPTI_SUCCESS) {
    return std::nullopt;
  }
  return stream_id;
}

bool LaunchCall::Failed(int& code) const {
  if (data_.functionReturnValue == nullptr) return false;
  code = is_runtime_call()
             ? static_cast<int>(*static_cast<const cudaError_t*>(data_.functionReturnValue))
             : static_cast<int>(*static_cast<const CUresult*>(data_.functionReturnValue));
  return code != 0;
}

}  // namespace gpuscope::cupti
