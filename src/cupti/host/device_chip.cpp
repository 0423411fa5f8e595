#include "cupti/host/device_chip.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <dlfcn.h>

namespace gpuscope::cupti::host {
namespace {

std::string ResultName(CUptiResult result) {
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  return text != nullptr ? text : "CUPTI error " + std::to_string(static_cast<int>(result));
}

// CUPTI's profiler needs an initialised driver (cuptiProfilerInitialize fails with
// CUPTI_ERROR_UNKNOWN before cuInit). libcuda is loaded, not linked: the gpuscope command must
// start on machines without a driver.
Status InitialiseDriver() {
  void* cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (cuda == nullptr) return Status::Error("no CUDA driver (libcuda.so.1) on this machine");
  using CuInit = int (*)(unsigned int);
  auto cu_init = reinterpret_cast<CuInit>(dlsym(cuda, "cuInit"));
  if (cu_init == nullptr) return Status::Error("libcuda.so.1 has no cuInit");
  if (int rc = cu_init(0); rc != 0) {
    return Status::Error("the CUDA driver found no usable GPU (cuInit: error " +
                         std::to_string(rc) + ")");
  }
  return Status();
}

}  // namespace

StatusOr<std::string> DetectChip(int device_index) {
  if (Status driver = InitialiseDriver(); !driver.ok()) return driver;
  CUpti_Profiler_Initialize_Params init{};
  init.structSize = CUpti_Profiler_Initialize_Params_STRUCT_SIZE;
  if (CUptiResult r = cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS) {
    return Status::Error("cannot query the GPU (" + ResultName(r) + ")");
  }
  CUpti_Device_GetChipName_Params params{};
  params.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  params.deviceIndex = static_cast<std::size_t>(device_index);
  CUptiResult r = cuptiDeviceGetChipName(&params);
  std::string chip = r == CUPTI_SUCCESS && params.pChipName != nullptr ? params.pChipName : "";
  CUpti_Profiler_DeInitialize_Params deinit{};
  deinit.structSize = CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE;
  cuptiProfilerDeInitialize(&deinit);
  if (chip.empty()) {
    return Status::Error("cannot find the chip of GPU " + std::to_string(device_index) + " (" +
                         ResultName(r) + ")");
  }
  return chip;
}

}  // namespace gpuscope::cupti::host
