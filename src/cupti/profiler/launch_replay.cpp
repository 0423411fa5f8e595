#include "cupti/profiler/launch_replay.h"

#include <cuda.h>

#include <string>

#include "cupti/common/driver_entry_points.h"

namespace gpuscope::cupti {
namespace {

Status Launched(CUresult result) {
  if (result == CUDA_SUCCESS) return Status();
  // The driver's error names need libcuda linked, which the injection library is not.
  return Status::Error("the replayed launch returned CUDA error " + std::to_string(result));
}

template <typename Params, typename Launch>
Status Classic(const void* params, Launch launch) {
  const auto* p = static_cast<const Params*>(params);
  return Launched(launch(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                         p->blockDimZ, p->sharedMemBytes, p->hStream, p->kernelParams, p->extra));
}

template <typename Params, typename Launch>
Status Cooperative(const void* params, Launch launch) {
  const auto* p = static_cast<const Params*>(params);
  return Launched(launch(p->f, p->gridDimX, p->gridDimY, p->gridDimZ, p->blockDimX, p->blockDimY,
                         p->blockDimZ, p->sharedMemBytes, p->hStream, p->kernelParams));
}

template <typename Params, typename Launch>
Status Extended(const void* params, Launch launch) {
  const auto* p = static_cast<const Params*>(params);
  return Launched(launch(p->config, p->f, p->kernelParams, p->extra));
}

}  // namespace

bool CanReplayLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return false;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return true;
    default:
      return false;
  }
}

Status ReplayLaunch(CUpti_CallbackId cbid, const void* params) {
  if (params == nullptr) return Status::Error("the launch call published no parameters");
  StatusOr<const DriverEntryPoints*> driver = Driver();
  if (!driver.ok()) return driver.status();
  const DriverEntryPoints& d = **driver;
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      return Classic<cuLaunchKernel_params>(params, d.launch_kernel);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return Classic<cuLaunchKernel_ptsz_params>(params, d.launch_kernel_ptsz);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
      return Extended<cuLaunchKernelEx_params>(params, d.launch_kernel_ex);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
      return Extended<cuLaunchKernelEx_ptsz_params>(params, d.launch_kernel_ex_ptsz);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return Cooperative<cuLaunchCooperativeKernel_params>(params, d.launch_cooperative);
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return Cooperative<cuLaunchCooperativeKernel_ptsz_params>(params, d.launch_cooperative_ptsz);
    default:
      return Status::Error("this launch call cannot be replayed");
  }
}

}  // namespace gpuscope::cupti
