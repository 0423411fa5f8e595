// metrics_kernels: ten kernels of different character, each launched a fixed number of times
// with fixed sizes (metrics_kernels.h), for comparing `gpuscope profile` with Nsight Compute
// on the same launches (tests/gpu/profile_vs_ncu_test.cpp). Each kernel stresses one thing a
// metric section reports: DRAM bandwidth, FP32 and FP64 pipes, shared-memory bank conflicts,
// uncoalesced loads, register-limited occupancy, divergence, local memory, a tiny launch, and
// the accidental FP64 accumulator of reference 000.
//
// Source lines: the line of each planted problem ends with a marker comment
// (`// planted: fp64-accumulator`, `uncoalesced`, `bank-conflicts`, `divergent-branch`,
// `local-memory`); tests/gpu/source_lines_test.cpp finds the line by its marker and checks
// that `gpuscope source` attributes the problem to it. The program is built with -lineinfo.
//
// Determinism: inputs are generated on the GPU from the element index (init_* kernels, which
// no `-k regex:^k_` filter selects), every kernel is a pure function of its buffers, and no
// kernel uses atomics, so the checksums printed at the end are the same bits on every run.
// Kernels launched more than once update their buffer in place: if a profiler's replay did
// not restore device memory between passes, the checksum of that kernel changes.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cuda_check.h"
#include "metrics_kernels.h"

namespace mk = gpuscope::examples::metrics;

// ---- inputs -------------------------------------------------------------------------------

// A value in [0, 1) from an index (a 32-bit integer hash), so inputs need no host copies.
__device__ __forceinline__ float PatternValue(std::uint64_t index, std::uint32_t seed) {
  std::uint32_t h = static_cast<std::uint32_t>(index) * 0x9E3779B1u ^ seed;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  return static_cast<float>(h >> 8) * (1.0f / 16777216.0f);
}

__global__ void init_fill_float(float* data, long n, std::uint32_t seed) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long>(gridDim.x) * blockDim.x) {
    data[i] = PatternValue(i, seed);
  }
}

__global__ void init_fill_double(double* data, long n, std::uint32_t seed) {
  for (long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long>(gridDim.x) * blockDim.x) {
    data[i] = PatternValue(i, seed);
  }
}

// ---- the measured kernels -------------------------------------------------------------------

// Memory-bound: 8 bytes read and 4 written per 2 FLOPs.
__global__ void k_saxpy(long n, float a, const float* x, float* y) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Compute-bound FP32: eight independent FFMA chains keep the FMA pipe busy; each chain
// converges to 1, so values stay finite for any iteration count.
__global__ void k_fma_fp32(float* data, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v[8];
#pragma unroll
  for (int c = 0; c < 8; ++c) v[c] = data[i] + c;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < 8; ++c) v[c] = fmaf(v[c], 0.9999f, 0.0001f);
  }
  float sum = 0.0f;
#pragma unroll
  for (int c = 0; c < 8; ++c) sum += v[c];
  data[i] = sum * 0.125f;
}

// Shared-memory bank conflicts: each warp owns a 32x32 float tile and lane L touches row L,
// so the 32 lanes of one access hit 32 different addresses of the same bank (32-way). The
// tile is volatile so that every access really is a shared-memory instruction.
__global__ void k_smem_bank_conflicts(float* data, int rounds) {
  __shared__ float tiles[mk::kSmemWarpsPerBlock][32 * 32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  volatile float* tile = tiles[threadIdx.x >> 5];
  const float x = data[i];
  for (int k = 0; k < 32; ++k) tile[lane * 32 + k] = x + k;
  __syncwarp();
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < 32; ++k) {
      sum += tile[lane * 32 + ((k + r) & 31)];  // planted: bank-conflicts
    }
  }
  data[i] = sum / (32.0f * rounds);
}

// Uncoalesced loads: consecutive threads read floats 33 apart (132 bytes), so each 32-byte
// sector fetched serves 4 useful bytes. Stride 33 is odd and n a power of two: the index
// map is a permutation, every element read once.
__global__ void k_uncoalesced_stride33(long n, const float* in, float* out) {
  const long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] += in[(i * mk::kStride) & (n - 1)];  // planted: uncoalesced
}

// Compute-bound FP64: four DFMA chains converging to 1.
__global__ void k_dfma_fp64(double* data, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double v[4];
#pragma unroll
  for (int c = 0; c < 4; ++c) v[c] = data[i] + c;
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int c = 0; c < 4; ++c) v[c] = fma(v[c], 0.9999, 0.0001);
  }
  data[i] = (v[0] + v[1] + v[2] + v[3]) * 0.25;
}

// Register-limited occupancy: 160 floats stay live across the loop (every one is read by
// its neighbour's update), which needs well over 128 registers per thread; the launch bound
// lets ptxas use up to 255. `nvcc --resource-usage` prints the count (CMakeLists.txt).
__global__ void __launch_bounds__(mk::kRegisterHeavyThreads)
    k_register_heavy(float* data, int iterations) {
  constexpr int kLive = mk::kRegisterHeavyLiveValues;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = data[i];
  float acc[kLive];
#pragma unroll
  for (int k = 0; k < kLive; ++k) acc[k] = x + k;
  for (int it = 0; it < iterations; ++it) {
    // The average of a value and its neighbour: bounded, and no value can be dropped.
#pragma unroll
    for (int k = 0; k < kLive; ++k) {
      acc[k] = fmaf(acc[k] - acc[(k + 1) % kLive], 0.5f, acc[(k + 1) % kLive]);
    }
  }
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < kLive; ++k) sum += acc[k];
  data[i] = sum * (1.0f / kLive);
}

// Divergent branches: even and odd lanes take different paths, and the loop trip count
// differs per lane, so warps split at the branch and at every loop exit.
__global__ void k_divergent_branches(float* data) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  float v = data[i];
  if (lane & 1) {                            // planted: divergent-branch
    for (int k = 0; k < 64 + lane * 4; ++k) {  // planted: divergent-branch
      v = fmaf(v, 0.999f, 0.001f);
    }
  } else {
    for (int k = 0; k < 32 + lane * 2; ++k) {  // planted: divergent-branch
      v = v * 0.5f + 0.25f;
    }
  }
  if (lane % 3 == 0) v = sqrtf(v);
  data[i] = v;
}

// A tiny launch: one block of one warp; each launch adds to the counters.
__global__ void k_tiny(int* counters) { counters[threadIdx.x] += threadIdx.x + 1; }

// Local memory: the array is indexed with values known only at run time, so it cannot live
// in registers; every access is a local load or store (what spills cost).
__global__ void k_local_spill(float* data, int rounds) {
  constexpr int kSize = mk::kLocalArrayElements;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float table[kSize];
  const float x = data[i];
  for (int k = 0; k < kSize; ++k) table[k] = x * (k + 1);
  int index = (i * 7) & (kSize - 1);
  float sum = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    // Averages keep every value within the inputs' range, so the index stays defined.
    sum = 0.5f * (sum + table[index]);  // planted: local-memory
    table[(index + 13) & (kSize - 1)] = sum;
    index = (index * 5 + 3 + static_cast<int>(sum * 16.0f)) & (kSize - 1);
  }
  data[i] = sum;
}

// The mistake of reference 000 in CUDA C++: the accumulator of a float convolution is
// declared with a double literal (`auto sum = 0.0`), so every multiply-add runs on the FP64
// pipe and the result is converted back to float.
__global__ void k_fp64_accumulator(const float* image, const float* mask, float* result) {
  constexpr int kSide = mk::kImageSide;
  constexpr int kHalf = mk::kMaskSide / 2;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= kSide || col >= kSide) return;
  auto sum = 0.0;  // the accidental double
  for (int k = 0; k < mk::kMaskSide; ++k) {
    for (int l = 0; l < mk::kMaskSide; ++l) {
      const int r = row - k + kHalf;
      const int c = col - l + kHalf;
      if (r >= 0 && r < kSide && c >= 0 && c < kSide) {
        sum += mask[k * mk::kMaskSide + l] * image[r * kSide + c];  // planted: fp64-accumulator
      }
    }
  }
  result[row * kSide + col] = static_cast<float>(sum);
}

// ---- host -----------------------------------------------------------------------------------

namespace {

// A device buffer, freed at exit.
template <typename T>
struct DeviceArray {
  explicit DeviceArray(long n) : count(n) { CHECK_CUDA(cudaMalloc(&data, n * sizeof(T))); }
  ~DeviceArray() { cudaFree(data); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* data = nullptr;
  long count = 0;
};

constexpr int kFillBlocks = 132 * 4;
constexpr int kFillThreads = 256;

void Fill(DeviceArray<float>& array, std::uint32_t seed) {
  init_fill_float<<<kFillBlocks, kFillThreads>>>(array.data, array.count, seed);
  CHECK_LAUNCH();
}

void Fill(DeviceArray<double>& array, std::uint32_t seed) {
  init_fill_double<<<kFillBlocks, kFillThreads>>>(array.data, array.count, seed);
  CHECK_LAUNCH();
}

// FNV-1a over the bytes of a device buffer: equal bits, equal checksum.
template <typename T>
std::uint64_t Checksum(const DeviceArray<T>& array) {
  std::vector<T> host(array.count);
  CHECK_CUDA(cudaMemcpy(host.data(), array.data, array.count * sizeof(T), cudaMemcpyDeviceToHost));
  const auto* bytes = reinterpret_cast<const unsigned char*>(host.data());
  std::uint64_t hash = 14695981039346656037ull;
  for (size_t b = 0; b < host.size() * sizeof(T); ++b) {
    hash ^= bytes[b];
    hash *= 1099511628211ull;
  }
  return hash;
}

int LaunchesOf(std::string_view name) {
  for (const auto& kernel : mk::kMetricsKernels) {
    if (kernel.name == name) return kernel.launches;
  }
  return 0;
}

}  // namespace

int main(int argc, char**) {
  if (argc != 1) {
    std::fprintf(stderr, "usage: metrics_kernels (no arguments)\n");
    return gpuscope::examples::kExitUsage;
  }
  const int threads = mk::kComputeThreads;
  const int compute_elements = mk::kComputeBlocks * threads;

  DeviceArray<float> saxpy_x(mk::kSaxpyElements), saxpy_y(mk::kSaxpyElements);
  DeviceArray<float> fma_data(compute_elements);
  DeviceArray<float> smem_data(compute_elements);
  DeviceArray<float> strided_in(mk::kStridedElements), strided_out(mk::kStridedElements);
  DeviceArray<double> dfma_data(compute_elements);
  DeviceArray<float> register_data(mk::kComputeBlocks * mk::kRegisterHeavyThreads);
  DeviceArray<float> divergent_data(compute_elements);
  DeviceArray<int> tiny_counters(mk::kTinyThreads);
  DeviceArray<float> local_data(compute_elements);
  const long image_elements = static_cast<long>(mk::kImageSide) * mk::kImageSide;
  DeviceArray<float> image(image_elements), conv_result(image_elements);
  DeviceArray<float> mask(mk::kMaskSide * mk::kMaskSide);

  Fill(saxpy_x, 1);
  Fill(saxpy_y, 2);
  Fill(fma_data, 3);
  Fill(smem_data, 4);
  Fill(strided_in, 5);
  Fill(strided_out, 6);
  Fill(dfma_data, 7);
  Fill(register_data, 8);
  Fill(divergent_data, 9);
  Fill(local_data, 10);
  Fill(image, 11);
  Fill(mask, 12);
  CHECK_CUDA(cudaMemset(tiny_counters.data, 0, mk::kTinyThreads * sizeof(int)));
  CHECK_CUDA(cudaDeviceSynchronize());

  // Launched in this order, each as many times as metrics_kernels.h says.
  for (int n = 0; n < LaunchesOf("k_saxpy"); ++n) {
    k_saxpy<<<mk::kSaxpyElements / threads, threads>>>(mk::kSaxpyElements, 2.0f, saxpy_x.data,
                                                       saxpy_y.data);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_fma_fp32"); ++n) {
    k_fma_fp32<<<mk::kComputeBlocks, threads>>>(fma_data.data, mk::kFmaIterations);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_smem_bank_conflicts"); ++n) {
    k_smem_bank_conflicts<<<mk::kComputeBlocks, mk::kSmemWarpsPerBlock * 32>>>(smem_data.data,
                                                                               mk::kSmemRounds);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_uncoalesced_stride33"); ++n) {
    k_uncoalesced_stride33<<<mk::kStridedElements / threads, threads>>>(
        mk::kStridedElements, strided_in.data, strided_out.data);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_dfma_fp64"); ++n) {
    k_dfma_fp64<<<mk::kComputeBlocks, threads>>>(dfma_data.data, mk::kDfmaIterations);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_register_heavy"); ++n) {
    k_register_heavy<<<mk::kComputeBlocks, mk::kRegisterHeavyThreads>>>(
        register_data.data, mk::kRegisterHeavyIterations);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_divergent_branches"); ++n) {
    k_divergent_branches<<<mk::kComputeBlocks, threads>>>(divergent_data.data);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_tiny"); ++n) {
    k_tiny<<<1, mk::kTinyThreads>>>(tiny_counters.data);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_local_spill"); ++n) {
    k_local_spill<<<mk::kComputeBlocks, threads>>>(local_data.data, mk::kLocalRounds);
    CHECK_LAUNCH();
  }
  for (int n = 0; n < LaunchesOf("k_fp64_accumulator"); ++n) {
    const dim3 block(32, 8);
    const dim3 grid(mk::kImageSide / block.x, mk::kImageSide / block.y);
    k_fp64_accumulator<<<grid, block>>>(image.data, mask.data, conv_result.data);
    CHECK_LAUNCH();
  }
  CHECK_CUDA(cudaDeviceSynchronize());

  // The buffer each kernel writes, in the order of metrics_kernels.h.
  const std::uint64_t sums[] = {
      Checksum(saxpy_y),        Checksum(fma_data),      Checksum(smem_data),
      Checksum(strided_out),    Checksum(dfma_data),     Checksum(register_data),
      Checksum(divergent_data), Checksum(tiny_counters), Checksum(local_data),
      Checksum(conv_result),
  };
  static_assert(sizeof(sums) / sizeof(sums[0]) == mk::kMetricsKernels.size());
  std::uint64_t all = 0;
  for (size_t k = 0; k < mk::kMetricsKernels.size(); ++k) {
    const auto name = mk::kMetricsKernels[k].name;
    std::printf("checksum %.*s %016llx\n", static_cast<int>(name.size()), name.data(),
                static_cast<unsigned long long>(sums[k]));
    all = all * 1099511628211ull ^ sums[k];
  }
  std::printf("checksum all %016llx\n", static_cast<unsigned long long>(all));
  std::printf("metrics_kernels: %d launches of %zu kernels\n", mk::kMetricsKernelLaunches,
              mk::kMetricsKernels.size());
  return 0;
}
