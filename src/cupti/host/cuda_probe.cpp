#include "cupti/host/cuda_probe.h"

#include <cuda.h>
#include <dlfcn.h>

#include <cstdlib>

#include "contract/environment_variables.h"

namespace gpuscope::cupti::host {
namespace {

// Looked up with dlsym, never linked: the launcher runs where no driver is installed.
using CuInitFn = decltype(&cuInit);
using CuGetErrorNameFn = decltype(&cuGetErrorName);
using CuGetErrorStringFn = decltype(&cuGetErrorString);

}  // namespace

std::string ExplainMissingCudaActivity() {
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    return "no NVIDIA driver was found (libcuda.so.1 could not be loaded)";
  }
  auto cu_init = reinterpret_cast<CuInitFn>(dlsym(driver, "cuInit"));
  if (cu_init == nullptr) {
    return "the NVIDIA driver library libcuda.so.1 has no cuInit (a broken driver install?)";
  }
  unsetenv(contract::kCudaInjectionVariable);
  const CUresult result = cu_init(0);
  // The injection library writes nothing before it has a report, so these two cannot be
  // told apart from here.
  if (result == CUDA_SUCCESS) {
    return "the program did not initialise CUDA, or the CUDA driver did not load gpuscope's "
           "library";
  }

  auto get_name = reinterpret_cast<CuGetErrorNameFn>(dlsym(driver, "cuGetErrorName"));
  auto get_text = reinterpret_cast<CuGetErrorStringFn>(dlsym(driver, "cuGetErrorString"));
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_name == nullptr || get_name(result, &name) != CUDA_SUCCESS || name == nullptr) {
    name = nullptr;
  }
  if (get_text == nullptr || get_text(result, &text) != CUDA_SUCCESS) text = nullptr;
  std::string reason = "CUDA cannot be used here: cuInit failed with ";
  reason += name != nullptr ? name : "error " + std::to_string(static_cast<int>(result));
  if (text != nullptr) reason += std::string(" (") + text + ")";
  return reason;
}

}  // namespace gpuscope::cupti::host
