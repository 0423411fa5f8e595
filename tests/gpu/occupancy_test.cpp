// gpuscope's occupancy calculator against the CUDA runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor on this machine's GPU, for real kernels of
// different register and shared-memory use (occupancy_kernels.cu) and random launch
// configurations. Label "gpu": it needs an NVIDIA GPU of a supported capability (7.0..12.1).
#include "analysis/occupancy.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <iostream>
#include <random>
#include <set>

#include "occupancy_kernels.h"

namespace gpuscope::gpu_test {
namespace {

using analysis::ArchitectureLimits;
using analysis::OccupancyInput;
using analysis::OccupancyResource;
using analysis::OccupancyResult;

#define ASSERT_CUDA(call)                                                          \
  do {                                                                             \
    cudaError_t error_ = (call);                                                   \
    ASSERT_EQ(error_, cudaSuccess) << #call << ": " << cudaGetErrorString(error_); \
  } while (0)

class GpuOccupancy : public ::testing::Test {
 protected:
  void SetUp() override {
    int count = 0;
    ASSERT_CUDA(cudaGetDeviceCount(&count));
    ASSERT_GT(count, 0) << "no CUDA device: this test needs a GPU";
    ASSERT_CUDA(cudaGetDeviceProperties(&prop_, 0));
    StatusOr<ArchitectureLimits> arch = analysis::FindArchitecture(prop_.major, prop_.minor);
    ASSERT_TRUE(arch.ok()) << arch.status().message();
    arch_ = arch.value();
  }

  cudaDeviceProp prop_{};
  ArchitectureLimits arch_;
};

// The table's limits for this capability are the device's own.
TEST_F(GpuOccupancy, DevicePropertiesMatchTheTable) {
  EXPECT_EQ(prop_.warpSize, arch_.warp_size);
  EXPECT_EQ(prop_.maxThreadsPerBlock, arch_.max_threads_per_block);
  EXPECT_EQ(prop_.maxThreadsPerMultiProcessor, arch_.max_threads_per_sm());
  EXPECT_EQ(prop_.maxBlocksPerMultiProcessor, arch_.max_blocks_per_sm);
  EXPECT_EQ(prop_.regsPerMultiprocessor, arch_.registers_per_sm);
  EXPECT_EQ(prop_.regsPerBlock, arch_.max_registers_per_block);
  EXPECT_EQ(static_cast<std::int64_t>(prop_.sharedMemPerMultiprocessor),
            arch_.shared_memory_per_sm);
  EXPECT_EQ(static_cast<std::int64_t>(prop_.sharedMemPerBlock), arch_.max_shared_memory_per_block);
  EXPECT_EQ(static_cast<std::int64_t>(prop_.sharedMemPerBlockOptin),
            arch_.max_shared_memory_per_block_optin);
  EXPECT_EQ(static_cast<int>(prop_.reservedSharedMemPerBlock),
            arch_.reserved_shared_memory_per_block);
}

// At least 50 configurations are required; 600 are drawn. Each draw picks a kernel, maybe
// raises its maximum dynamic shared memory (the opt-in), and picks a block size and a
// dynamic size the kernel accepts. The carveout preference stays at its default: that is
// the setting verified to agree between the runtime and the toolkit's calculator.
TEST_F(GpuOccupancy, RandomConfigurationsMatchTheRuntime) {
  constexpr int kDraws = 600;
  constexpr unsigned kSeed = 4242;
  std::mt19937 random(kSeed);
  auto uniform = [&](long long low, long long high) {
    return std::uniform_int_distribution<long long>(low, high)(random);
  };
  const std::vector<OccupancyTestKernel> kernels = OccupancyTestKernels();
  std::set<int> register_counts;
  int compared = 0, limited_by_registers = 0, limited_by_shared_memory = 0, limited_by_warps = 0,
      cannot_launch = 0;

  for (int draw = 0; draw < kDraws; ++draw) {
    const OccupancyTestKernel& kernel = kernels[uniform(0, kernels.size() - 1)];
    cudaFuncAttributes attributes{};
    ASSERT_CUDA(cudaFuncGetAttributes(&attributes, kernel.function));
    const long long room =
        static_cast<long long>(prop_.sharedMemPerBlockOptin - attributes.sharedSizeBytes);
    const long long default_max =
        static_cast<long long>(prop_.sharedMemPerBlock - attributes.sharedSizeBytes);
    const long long max_dynamic = uniform(0, 1) ? default_max : uniform(0, room);
    ASSERT_CUDA(cudaFuncSetAttribute(kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(max_dynamic)));
    ASSERT_CUDA(cudaFuncGetAttributes(&attributes, kernel.function));
    ASSERT_EQ(attributes.maxDynamicSharedSizeBytes, max_dynamic);

    const int threads = static_cast<int>(uniform(1, attributes.maxThreadsPerBlock));
    const long long dynamic = uniform(0, 3) == 0 ? 0 : uniform(0, max_dynamic);
    int runtime_blocks = -1;
    ASSERT_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &runtime_blocks, kernel.function, threads, static_cast<size_t>(dynamic)));

    OccupancyInput input;
    input.threads_per_block = threads;
    input.registers_per_thread = attributes.numRegs;
    input.static_shared_memory = static_cast<std::int64_t>(attributes.sharedSizeBytes);
    input.dynamic_shared_memory = dynamic;
    input.max_dynamic_shared_memory = max_dynamic;
    StatusOr<OccupancyResult> ours = analysis::ComputeOccupancy(arch_, input);
    ASSERT_TRUE(ours.ok()) << ours.status().message();
    EXPECT_EQ(ours->blocks_per_sm, runtime_blocks)
        << kernel.name << ": " << threads << " threads, " << attributes.numRegs << " registers, "
        << attributes.sharedSizeBytes << " static + " << dynamic
        << " dynamic shared memory, maximum dynamic " << max_dynamic << " (draw " << draw
        << ", seed " << kSeed << ")";

    ++compared;
    register_counts.insert(attributes.numRegs);
    if (ours->blocks_per_sm == 0) ++cannot_launch;
    if (ours->IsLimiter(OccupancyResource::kRegisters)) ++limited_by_registers;
    if (ours->IsLimiter(OccupancyResource::kSharedMemory)) ++limited_by_shared_memory;
    if (ours->IsLimiter(OccupancyResource::kWarps)) ++limited_by_warps;
  }
  // Restore the default so nothing else in this process sees the opt-in.
  for (const OccupancyTestKernel& kernel : kernels) {
    cudaFuncAttributes attributes{};
    ASSERT_CUDA(cudaFuncGetAttributes(&attributes, kernel.function));
    ASSERT_CUDA(cudaFuncSetAttribute(
        kernel.function, cudaFuncAttributeMaxDynamicSharedMemorySize,
        static_cast<int>(prop_.sharedMemPerBlock - attributes.sharedSizeBytes)));
  }

  // The draws must have exercised every limit, or agreement would prove little.
  EXPECT_GE(compared, 50);
  EXPECT_GE(register_counts.size(), 5u) << "the kernels do not spread their register use";
  EXPECT_GT(limited_by_registers, 0);
  EXPECT_GT(limited_by_shared_memory, 0);
  EXPECT_GT(limited_by_warps, 0);
  std::cout << compared << " configurations compared on " << prop_.name << " (cc " << prop_.major
            << "." << prop_.minor << "), " << register_counts.size() << " register counts, "
            << cannot_launch << " that cannot launch\n";
}

}  // namespace
}  // namespace gpuscope::gpu_test
