#include "occupancy_kernels.h"

namespace gpuscope::gpu_test {
namespace {

// kAccumulators values stay live across the loop, so register use grows with them until
// __launch_bounds__(kMaxThreads, kMinBlocks) caps it (65536 / (kMaxThreads x kMinBlocks)).
// kStaticFloats floats of static shared memory; the dynamic array is referenced so that the
// kernel really takes dynamic shared memory. The test never launches them: occupancy is a
// property of the compiled function and the launch configuration.
template <int kAccumulators, int kStaticFloats, int kMaxThreads, int kMinBlocks>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    PressureKernel(float* out, const float* in, int iterations) {
  extern __shared__ float dynamic_shared[];
  float acc[kAccumulators];
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) acc[i] = in[(threadIdx.x + i) % 64];
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int i = 0; i < kAccumulators; ++i) {
      acc[i] = acc[i] * 1.0001f + acc[(i + 1) % kAccumulators];
    }
  }
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < kAccumulators; ++i) sum += acc[i];
  if constexpr (kStaticFloats > 0) {
    __shared__ float static_shared[kStaticFloats];
    static_shared[threadIdx.x % kStaticFloats] = sum;
    __syncthreads();
    sum += static_shared[(threadIdx.x + 1) % kStaticFloats];
  }
  dynamic_shared[threadIdx.x] = sum;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = dynamic_shared[(threadIdx.x + 1) % blockDim.x];
}

#define GPUSCOPE_OCCUPANCY_KERNEL(acc, floats, threads, blocks)                      \
  OccupancyTestKernel {                                                              \
    "acc" #acc "_static" #floats "f_bounds" #threads "x" #blocks,                    \
        reinterpret_cast<const void*>(&PressureKernel<acc, floats, threads, blocks>) \
  }

}  // namespace

std::vector<OccupancyTestKernel> OccupancyTestKernels() {
  return {
      GPUSCOPE_OCCUPANCY_KERNEL(1, 0, 1024, 1),     GPUSCOPE_OCCUPANCY_KERNEL(8, 0, 1024, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(8, 0, 1024, 2),     GPUSCOPE_OCCUPANCY_KERNEL(24, 0, 1024, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(32, 0, 128, 8),     GPUSCOPE_OCCUPANCY_KERNEL(48, 0, 256, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(96, 0, 256, 1),     GPUSCOPE_OCCUPANCY_KERNEL(96, 0, 128, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(160, 0, 64, 1),     GPUSCOPE_OCCUPANCY_KERNEL(24, 256, 1024, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(16, 1024, 256, 4),  GPUSCOPE_OCCUPANCY_KERNEL(64, 2048, 64, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(8, 4096, 512, 1),   GPUSCOPE_OCCUPANCY_KERNEL(48, 4096, 256, 2),
      GPUSCOPE_OCCUPANCY_KERNEL(1, 12000, 1024, 1), GPUSCOPE_OCCUPANCY_KERNEL(24, 12000, 256, 1),
      GPUSCOPE_OCCUPANCY_KERNEL(96, 12000, 128, 1),
  };
}

}  // namespace gpuscope::gpu_test
