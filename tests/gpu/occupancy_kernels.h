// Real kernels for the occupancy GPU test, with a spread of register counts (accumulators
// kept live, capped by __launch_bounds__), static shared memory and maximum block sizes.
// Plain C++17 so that nvcc compiles the kernels and the C++20 test includes this header.
#pragma once

#include <vector>

namespace gpuscope::gpu_test {

struct OccupancyTestKernel {
  const char* name;      // e.g. "acc48_static16384_bounds256x2"
  const void* function;  // for cudaFuncGetAttributes and the occupancy API
};

std::vector<OccupancyTestKernel> OccupancyTestKernels();

}  // namespace gpuscope::gpu_test
