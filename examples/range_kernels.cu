// range_kernels: kernels that only make sense together, for `gpuscope profile --replay-mode
// app-range`: each launch reads what the one before wrote. A warm-up launch, then
// a cudaProfilerStart/Stop range (fill, scale, accumulate), then an NVTX push/pop range
// "dependent_steps" (scale, accumulate, scale, accumulate), then a last launch outside both
// (expected_counts.h). No atomics and one stream: the checksum printed at the end
// ("checksum range <16 hex digits>") is the same bits on every run, profiled or not.
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "expected_counts.h"

namespace ex = gpuscope::examples;

constexpr int kN = 1 << 20;

__global__ void k_fill(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = static_cast<float>(i % 1024);
}

__global__ void k_scale(float* a, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * s + 1.0f;
}

__global__ void k_accumulate(const float* a, float* b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += a[i];
}

int main() {
  CHECK_CUDA(cudaFree(nullptr));  // the context (and gpuscope) before the first NVTX call
  float* a = nullptr;
  float* b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, kN * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&b, kN * sizeof(float)));
  CHECK_CUDA(cudaMemset(b, 0, kN * sizeof(float)));
  const int threads = 256;
  const int blocks = (kN + threads - 1) / threads;

  k_fill<<<blocks, threads>>>(b, kN);  // warm-up, outside every range
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());

  CHECK_CUDA(cudaProfilerStart());
  k_fill<<<blocks, threads>>>(a, kN);
  CHECK_LAUNCH();
  k_scale<<<blocks, threads>>>(a, kN, 0.5f);
  CHECK_LAUNCH();
  k_accumulate<<<blocks, threads>>>(a, b, kN);
  CHECK_LAUNCH();
  CHECK_CUDA(cudaProfilerStop());

  const std::string nvtx_name(ex::kRangeNvtxName);
  nvtxRangePushA(nvtx_name.c_str());
  for (int i = 0; i < ex::kRangeNvtxKernels / 2; ++i) {
    k_scale<<<blocks, threads>>>(a, kN, 0.25f);
    CHECK_LAUNCH();
    k_accumulate<<<blocks, threads>>>(a, b, kN);
    CHECK_LAUNCH();
  }
  nvtxRangePop();

  k_scale<<<blocks, threads>>>(b, kN, 2.0f);  // outside every range
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());

  std::vector<float> host(kN);
  CHECK_CUDA(cudaMemcpy(host.data(), b, kN * sizeof(float), cudaMemcpyDeviceToHost));
  std::uint64_t checksum = 1469598103934665603ull;  // FNV-1a over the bytes
  for (float value : host) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(&value);
    for (std::size_t k = 0; k < sizeof(value); ++k) checksum = (checksum ^ bytes[k]) * 1099511628211ull;
  }
  std::printf("checksum range %016llx\n", static_cast<unsigned long long>(checksum));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  return 0;
}
