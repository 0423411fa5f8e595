#include "cli/cuda_probe.h"

#include <dlfcn.h>

#include <cstdlib>

#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

// The driver API's signatures, declared here instead of including cuda.h: the probe needs
// three functions and must build and run on machines without a driver. CUresult is an int.
using CuInitFn = int (*)(unsigned int flags);
using CuGetErrorFn = int (*)(int error, const char** text);

constexpr int kCudaSuccess = 0;

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
  int result = cu_init(0);
  // The injection library writes nothing before it has a report, so these two cannot be
  // told apart from here.
  if (result == kCudaSuccess) {
    return "the program did not initialise CUDA, or the CUDA driver did not load gpuscope's "
           "library";
  }

  auto get_name = reinterpret_cast<CuGetErrorFn>(dlsym(driver, "cuGetErrorName"));
  auto get_text = reinterpret_cast<CuGetErrorFn>(dlsym(driver, "cuGetErrorString"));
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_name == nullptr || get_name(result, &name) != kCudaSuccess || name == nullptr) {
    name = nullptr;
  }
  if (get_text == nullptr || get_text(result, &text) != kCudaSuccess) text = nullptr;
  std::string reason = "CUDA cannot be used here: cuInit failed with ";
  reason += name != nullptr ? name : "error " + std::to_string(result);
  if (text != nullptr) reason += std::string(" (") + text + ")";
  return reason;
}

}  // namespace gpuscope::cli
