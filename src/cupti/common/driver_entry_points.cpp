#include "cupti/common/driver_entry_points.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace gpuscope::cupti {
namespace {

template <typename Function>
bool Find(void* library, const char* name, Function& out, std::string& missing) {
  out = reinterpret_cast<Function>(dlsym(library, name));
  if (out == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
  return out != nullptr;
}

StatusOr<const DriverEntryPoints*> LookUp() {
  // The driver is loaded (it loaded us): RTLD_NOLOAD finds it without loading another copy.
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
  if (library == nullptr) return Status::Error("the CUDA driver (libcuda.so.1) is not loaded");
  static DriverEntryPoints entry_points;
  std::string missing;
  Find(library, "cuLaunchKernel", entry_points.launch_kernel, missing);
  Find(library, "cuLaunchKernel_ptsz", entry_points.launch_kernel_ptsz, missing);
  Find(library, "cuLaunchKernelEx", entry_points.launch_kernel_ex, missing);
  Find(library, "cuLaunchKernelEx_ptsz", entry_points.launch_kernel_ex_ptsz, missing);
  Find(library, "cuLaunchCooperativeKernel", entry_points.launch_cooperative, missing);
  Find(library, "cuLaunchCooperativeKernel_ptsz", entry_points.launch_cooperative_ptsz, missing);
  Find(library, "cuCtxSynchronize", entry_points.context_synchronize, missing);
  Find(library, "cuModuleLoadData", entry_points.module_load_data, missing);
  Find(library, "cuModuleGetFunction", entry_points.module_get_function, missing);
  Find(library, "cuMemAlloc_v2", entry_points.mem_alloc, missing);
  Find(library, "cuMemsetD8_v2", entry_points.memset_d8, missing);
  Find(library, "cuCtxGetDevice", entry_points.context_get_device, missing);
  Find(library, "cuCtxSetCurrent", entry_points.context_set_current, missing);
  Find(library, "cuCtxGetCurrent", entry_points.context_get_current, missing);
  Find(library, "cuDeviceGetAttribute", entry_points.device_get_attribute, missing);
  Find(library, "cuCtxPushCurrent_v2", entry_points.context_push_current, missing);
  Find(library, "cuCtxPopCurrent_v2", entry_points.context_pop_current, missing);
  Find(library, "cuStreamCreate", entry_points.stream_create, missing);
  Find(library, "cuMemHostAlloc", entry_points.mem_host_alloc, missing);
  Find(library, "cuMemHostGetDevicePointer_v2", entry_points.mem_host_get_device_pointer,
       missing);
  if (!missing.empty()) return Status::Error("the CUDA driver lacks " + missing);
  return &entry_points;
}

}  // namespace

StatusOr<const DriverEntryPoints*> Driver() {
  static std::once_flag once;
  static StatusOr<const DriverEntryPoints*> found = Status::Error("not looked up");
  std::call_once(once, [] { found = LookUp(); });
  return found;
}

}  // namespace gpuscope::cupti
