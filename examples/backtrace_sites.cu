// backtrace_sites: kernels launched from two named host functions, for `gpuscope run
// --backtrace` (tests/gpu/backtrace_test.cpp): each launch's call site must be symbolized to its
// function and to the file:line marked "launch site" below. Built with host debug information
// and without optimisation (examples/CMakeLists.txt), as a program being debugged would be.
#include <cstdio>

#include "cuda_check.h"

__global__ void scale(float* data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void shift(float* data, int n, float offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += offset;
}

__attribute__((noinline)) void LaunchScale(float* data, int n) {
  scale<<<(n + 255) / 256, 256>>>(data, n, 2.0f);  // launch site: scale
  CHECK_LAUNCH();
}

__attribute__((noinline)) void LaunchShift(float* data, int n) {
  shift<<<(n + 255) / 256, 256>>>(data, n, 1.0f);  // launch site: shift
  CHECK_LAUNCH();
}

int main() {
  constexpr int n = 1 << 16;
  float* data = nullptr;
  CHECK_CUDA(cudaMalloc(&data, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(data, 0, n * sizeof(float)));
  for (int i = 0; i < 3; ++i) LaunchScale(data, n);
  for (int i = 0; i < 2; ++i) LaunchShift(data, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  float first = -1;
  CHECK_CUDA(cudaMemcpy(&first, data, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("backtrace_sites: %s\n", first == 2.0f ? "ok" : "wrong result");
  CHECK_CUDA(cudaFree(data));
  return first == 2.0f ? 0 : 1;
}
