// gpu_metrics_phases: three phases whose GPU metrics are known, for `gpuscope run --gpu-metrics`
// (tests/gpu/gpu_metrics_test.cpp), each inside an NVTX range of its name:
//   "busy"  spin_all_sms: every SM full of warps spinning on the global timer for ~10 ms
//           -> SM active near 100 %
//   "gap"   nothing on the GPU for ~10 ms (the host sleeps)
//           -> SM active near 0
//   "copy"  stream_copy: a 1 GiB device-to-device copy, 16 passes, 16-byte loads and stores
//           -> DRAM read + write near the bandwidth the device reports (H200 4.8 TB/s,
//              H100 SXM 3.35 TB/s; the test expects at least 60 % of it)
// Prints what it did on one line per phase.
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "cuda_check.h"

#define CHECK(call) gpuscope::examples::CheckCuda((call), #call, __FILE__, __LINE__)

namespace {

constexpr unsigned long long kBusyNs = 10'000'000;
constexpr std::size_t kCopyBytes = 1ull << 30;
constexpr int kCopyPasses = 16;

__device__ unsigned long long GlobalTimer() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

// Every thread spins until kBusyNs after it started: all warps resident for the whole time.
__global__ void spin_all_sms(unsigned long long ns, int* sink) {
  const unsigned long long start = GlobalTimer();
  int spins = 0;
  while (GlobalTimer() - start < ns) ++spins;
  if (spins == -1) *sink = spins;  // never true: keeps the loop
}

__global__ void stream_copy(const int4* __restrict__ src, int4* __restrict__ dst, std::size_t n,
                            int passes) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (int pass = 0; pass < passes; ++pass) {
    for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < n;
         i += stride) {
      dst[i] = src[i];
    }
  }
}

}  // namespace

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int)));
  int4 *src = nullptr, *dst = nullptr;
  CHECK(cudaMalloc(&src, kCopyBytes));
  CHECK(cudaMalloc(&dst, kCopyBytes));
  CHECK(cudaMemset(src, 1, kCopyBytes));
  CHECK(cudaDeviceSynchronize());
  // Let the sampler start on this device before the phases: it begins at the context's creation
  // on a thread of its own (host catalog, config image, enable, start: tens of ms), and the
  // first sample after its start is not kept.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));

  const int threads = 256;
  const int busy_blocks = prop.multiProcessorCount * (prop.maxThreadsPerMultiProcessor / threads);
  nvtxRangePushA("busy");
  spin_all_sms<<<busy_blocks, threads>>>(kBusyNs, sink);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();
  std::printf("gpu_metrics_phases: busy %d blocks x %d threads on %d SMs for %llu ms\n",
              busy_blocks, threads, prop.multiProcessorCount, kBusyNs / 1'000'000);

  nvtxRangePushA("gap");
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  nvtxRangePop();
  std::printf("gpu_metrics_phases: gap 10 ms\n");

  nvtxRangePushA("copy");
  const auto copy_start = std::chrono::steady_clock::now();
  stream_copy<<<prop.multiProcessorCount * 4, 1024>>>(src, dst, kCopyBytes / sizeof(int4),
                                                      kCopyPasses);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - copy_start).count();
  nvtxRangePop();
  std::printf("gpu_metrics_phases: copy %d x %zu MiB read+write in %.2f ms (%.0f GB/s by wall "
              "time)\n",
              kCopyPasses, kCopyBytes >> 20, seconds * 1e3,
              2.0 * kCopyPasses * kCopyBytes / seconds / 1e9);
  // The sampler's last decode takes the samples of the copy's end.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(cudaFree(src));
  CHECK(cudaFree(dst));
  CHECK(cudaFree(sink));
  return 0;
}
