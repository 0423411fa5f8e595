// Which of CUPTI's callbacks reach the kernel profiler, and where each goes.
#include "cupti/common/profiler_api_calls.h"
#include "cupti/profiler/kernel_profiler.h"
#include "cupti/profiler/launch_call.h"

namespace gpuscope::cupti {

bool KernelProfiler::Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                            const void* data) {
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(data);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) ForgetContext(resource->context);
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED && resource->resourceDescriptor != nullptr) {
      const auto* module = static_cast<const CUpti_ModuleResourceData*>(resource->resourceDescriptor);
      OnModuleLoaded(module->pCubin, module->cubinSize);
    }
    return false;
  }
  if (domain == CUPTI_CB_DOMAIN_NVTX) {
    // --replay-mode app-range --nvtx-include: the NVTX callbacks are its range boundaries.
    if (app_range()) OnNvtxCallback(cbid, *static_cast<const CUpti_NvtxData*>(data));
    return false;
  }
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr) return false;
  if (IsKernelLaunchCallback(domain, cbid)) {
    OnLaunchCallback(domain, cbid, *api);
    return true;
  }
  // app-range: a range begins at cudaProfilerStart's exit and ends at cudaProfilerStop's
  // enter (range_boundaries.h).
  if (app_range() && (IsProfilerStartCall(domain, cbid) || IsProfilerStopCall(domain, cbid))) {
    OnProfilerApiCallback(domain, cbid, *api);
  }
  return false;
}

}  // namespace gpuscope::cupti
