// Error checking shared by the example programs. Every CUDA call is checked: these programs
// run on a GPU machine we cannot log into, so a failure must say which call failed and why
// on one line, and exit with a code the GPU tests can tell apart from the program's own.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "expected_counts.h"  // kExitCudaError, kExitUsage

namespace gpuscope::examples {

inline void CheckCuda(cudaError_t result, const char* call, const char* file, int line) {
  if (result == cudaSuccess) return;
  std::fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", file, line, call, cudaGetErrorString(result),
               cudaGetErrorName(result));
  std::exit(kExitCudaError);
}

// Parses a positive count argument; prints the usage line and exits on anything else.
inline long ParsePositiveArg(const char* text, const char* usage) {
  char* end = nullptr;
  long value = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || value <= 0) {
    std::fprintf(stderr, "bad argument '%s'\nusage: %s\n", text, usage);
    std::exit(kExitUsage);
  }
  return value;
}

}  // namespace gpuscope::examples

#define CHECK_CUDA(call) ::gpuscope::examples::CheckCuda((call), #call, __FILE__, __LINE__)
// A kernel launch reports configuration errors only through cudaGetLastError.
#define CHECK_LAUNCH() CHECK_CUDA(cudaGetLastError())
