// profiler_start_stop: kernels of three distinct names before cudaProfilerStart, between
// Start and Stop, and after Stop. With `gpuscope run --profile-from-start off` only the
// middle ones may be in the report; without it, all of them.
#include <cuda_profiler_api.h>

#include <cstdio>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

__global__ void beforeStartKernel(int* counter) { atomicAdd(counter, 1); }
__global__ void betweenStartStopKernel(int* counter) { atomicAdd(counter, 1); }
__global__ void afterStopKernel(int* counter) { atomicAdd(counter, 1); }

namespace {

// Each phase ends with a synchronize so that no kernel is still running across a
// Start/Stop boundary: the expected counts are then exact.
template <typename Kernel>
void LaunchPhase(Kernel kernel, int count, int* counter) {
  for (int i = 0; i < count; ++i) {
    kernel<<<1, 1>>>(counter);
    CHECK_LAUNCH();
  }
  CHECK_CUDA(cudaDeviceSynchronize());
}

}  // namespace

int main() {
  int* counter = nullptr;
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  LaunchPhase(beforeStartKernel, ex::kBeforeStartKernels, counter);
  CHECK_CUDA(cudaProfilerStart());
  LaunchPhase(betweenStartStopKernel, ex::kBetweenKernels, counter);
  CHECK_CUDA(cudaProfilerStop());
  LaunchPhase(afterStopKernel, ex::kAfterStopKernels, counter);

  int counted = 0;
  CHECK_CUDA(cudaMemcpy(&counted, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaFree(counter));
  const int expected = ex::kBeforeStartKernels + ex::kBetweenKernels + ex::kAfterStopKernels;
  if (counted != expected) {
    std::fprintf(stderr, "profiler_start_stop: counted %d, expected %d\n", counted, expected);
    return 1;
  }
  std::printf("profiler_start_stop: ok\n");
  return 0;
}
