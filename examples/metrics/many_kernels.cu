// many_kernels: 10,000 back-to-back launches of small kernels with eight different names
// (k_small_0 ... k_small_7), and in the middle the one launch of k_target. The benchmark of
// `gpuscope profile -k k_target -c 1` against `gpuscope run` (scripts/bench-profile.sh): a
// profiler that selects one kernel must let the other 9,999 run at tracing speed.
// Prints "kernels <n>", "loop_ns <launch loop + sync>", "total_ns <main, CUDA start
// included>" and "checksum all <16 hex digits>" (equal on every run: no atomics, one stream).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "metrics_kernels.h"

namespace mk = gpuscope::examples::metrics;

constexpr int kSmallBlocks = 4;
constexpr int kSmallThreads = 128;
constexpr int kTargetElements = 1 << 20;
constexpr int kTargetThreads = 256;

// Eight kernels with eight names: each adds its own constant to its own slice of counters.
#define GPUSCOPE_SMALL_KERNEL(index)                                   \
  __global__ void k_small_##index(int* counters) {                     \
    const int i = blockIdx.x * blockDim.x + threadIdx.x;               \
    counters[(index)*kSmallBlocks * kSmallThreads + i] += (index) + 1; \
  }
GPUSCOPE_SMALL_KERNEL(0)
GPUSCOPE_SMALL_KERNEL(1)
GPUSCOPE_SMALL_KERNEL(2)
GPUSCOPE_SMALL_KERNEL(3)
GPUSCOPE_SMALL_KERNEL(4)
GPUSCOPE_SMALL_KERNEL(5)
GPUSCOPE_SMALL_KERNEL(6)
GPUSCOPE_SMALL_KERNEL(7)
#undef GPUSCOPE_SMALL_KERNEL

using SmallKernel = void (*)(int*);
constexpr SmallKernel kSmallKernels[] = {k_small_0, k_small_1, k_small_2, k_small_3,
                                         k_small_4, k_small_5, k_small_6, k_small_7};
static_assert(sizeof(kSmallKernels) / sizeof(kSmallKernels[0]) == mk::kManySmallKernelNames);

// The one kernel the benchmark profiles: a little real work (1 Mi floats), read and written.
__global__ void k_target(float* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kTargetElements) data[i] = data[i] * 0.5f + static_cast<float>(i & 255);
}

namespace {

long long NanosecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              start)
      .count();
}

template <typename T>
std::uint64_t Checksum(const T* device, size_t count) {
  std::vector<T> host(count);
  CHECK_CUDA(cudaMemcpy(host.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
  std::uint64_t hash = 14695981039346656037ull;
  for (size_t b = 0; b < count * sizeof(T); ++b) {
    hash ^= bytes[b];
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

int main(int argc, char**) {
  const auto main_start = std::chrono::steady_clock::now();
  if (argc != 1) {
    std::fprintf(stderr, "usage: many_kernels (no arguments)\n");
    return gpuscope::examples::kExitUsage;
  }
  const size_t counter_count = size_t{mk::kManySmallKernelNames} * kSmallBlocks * kSmallThreads;
  int* counters = nullptr;
  float* target_data = nullptr;
  CHECK_CUDA(cudaMalloc(&counters, counter_count * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&target_data, kTargetElements * sizeof(float)));
  CHECK_CUDA(cudaMemset(counters, 0, counter_count * sizeof(int)));
  CHECK_CUDA(cudaMemset(target_data, 0, kTargetElements * sizeof(float)));
  // Load the module now (CUDA loads lazily, at first use): the timed loop holds launches only.
  cudaFuncAttributes attributes;
  CHECK_CUDA(cudaFuncGetAttributes(&attributes, k_target));
  CHECK_CUDA(cudaDeviceSynchronize());

  const auto loop_start = std::chrono::steady_clock::now();
  for (int n = 0; n < mk::kManyKernelsLaunches; ++n) {
    if (n == mk::kManyTargetLaunchIndex) {
      k_target<<<kTargetElements / kTargetThreads, kTargetThreads>>>(target_data);
    } else {
      kSmallKernels[n % mk::kManySmallKernelNames]<<<kSmallBlocks, kSmallThreads>>>(counters);
    }
  }
  CHECK_LAUNCH();
  CHECK_CUDA(cudaDeviceSynchronize());
  const long long loop_ns = NanosecondsSince(loop_start);

  const std::uint64_t sum =
      Checksum(counters, counter_count) * 1099511628211ull ^ Checksum(target_data, kTargetElements);
  CHECK_CUDA(cudaFree(counters));
  CHECK_CUDA(cudaFree(target_data));
  std::printf("kernels %d\nloop_ns %lld\ntotal_ns %lld\nchecksum all %016llx\n",
              mk::kManyKernelsLaunches, loop_ns, NanosecondsSince(main_start),
              static_cast<unsigned long long>(sum));
  return 0;
}
