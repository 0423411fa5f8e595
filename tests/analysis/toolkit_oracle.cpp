#include "toolkit_oracle.h"

#include <cuda_occupancy.h>

#include <climits>

namespace gpuscope::analysis::testing {
namespace {

constexpr std::size_t kKiB = 1024;

// Published limits per capability (threads per SM; shared memory per SM, per block with
// opt-in, reserved per block), as cudaGetDeviceProperties reports them. 9.0 is the H200 of
// ../shared/notes/cupti.md §5.1.
constexpr OracleDevice kDevices[] = {
    {7, 0, 2048, 96 * kKiB, 96 * kKiB, 0},       {7, 2, 2048, 96 * kKiB, 96 * kKiB, 0},
    {7, 5, 1024, 64 * kKiB, 64 * kKiB, 0},       {8, 0, 2048, 164 * kKiB, 163 * kKiB, kKiB},
    {8, 6, 1536, 100 * kKiB, 99 * kKiB, kKiB},   {8, 7, 1536, 164 * kKiB, 163 * kKiB, kKiB},
    {8, 9, 1536, 100 * kKiB, 99 * kKiB, kKiB},   {9, 0, 2048, 228 * kKiB, 227 * kKiB, kKiB},
    {10, 0, 2048, 228 * kKiB, 227 * kKiB, kKiB}, {10, 1, 1536, 228 * kKiB, 227 * kKiB, kKiB},
    {10, 3, 2048, 228 * kKiB, 227 * kKiB, kKiB}, {11, 0, 1536, 228 * kKiB, 227 * kKiB, kKiB},
    {12, 0, 1536, 100 * kKiB, 99 * kKiB, kKiB},  {12, 1, 1536, 100 * kKiB, 99 * kKiB, kKiB},
};

cudaOccDeviceProp Properties(const OracleDevice& device) {
  cudaOccDeviceProp props;
  props.computeMajor = device.major;
  props.computeMinor = device.minor;
  props.maxThreadsPerBlock = 1024;
  props.maxThreadsPerMultiprocessor = device.max_threads_per_sm;
  props.regsPerBlock = 65536;
  props.regsPerMultiprocessor = 65536;
  props.warpSize = 32;
  props.sharedMemPerBlock = 48 * kKiB;
  props.sharedMemPerMultiprocessor = device.shared_memory_per_sm;
  props.numSms = 100;  // irrelevant to blocks per SM
  props.sharedMemPerBlockOptin = device.shared_memory_per_block_optin;
  props.reservedSharedMemPerBlock = device.reserved_shared_memory_per_block;
  return props;
}

}  // namespace

std::span<const OracleDevice> OracleDevices() { return kDevices; }

OracleAnswer AskToolkit(const OracleDevice& device, const OccupancyInput& input) {
  const cudaOccDeviceProp props = Properties(device);
  // What the runtime builds from cudaFuncGetAttributes: the opt-in limit mode, and the
  // kernel's maximum dynamic shared memory (by default 48 KB minus the static part).
  cudaOccFuncAttributes attributes;
  attributes.maxThreadsPerBlock = 1024;
  attributes.numRegs = input.registers_per_thread;
  attributes.sharedSizeBytes = static_cast<std::size_t>(input.static_shared_memory);
  attributes.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attributes.maxDynamicSharedSizeBytes = static_cast<std::size_t>(
      input.max_dynamic_shared_memory.value_or(48 * 1024 - input.static_shared_memory));
  attributes.numBlockBarriers = input.barriers_per_block;
  cudaOccDeviceState state;
  state.carveoutConfig = input.carveout_percent.value_or(SHAREDMEM_CARVEOUT_DEFAULT);

  cudaOccResult result{};
  OracleAnswer answer;
  answer.ok = cudaOccMaxActiveBlocksPerMultiprocessor(
                  &result, &props, &attributes, &state, input.threads_per_block,
                  static_cast<std::size_t>(input.dynamic_shared_memory)) == CUDA_OCC_SUCCESS;
  answer.blocks_per_sm = result.activeBlocksPerMultiprocessor;
  answer.limiting_factors = result.limitingFactors;
  answer.limit_warps = result.blockLimitWarps;
  answer.limit_registers = result.blockLimitRegs;
  answer.limit_shared_memory = result.blockLimitSharedMem;
  answer.limit_blocks = result.blockLimitBlocks;
  answer.limit_barriers = result.blockLimitBarriers;
  answer.allocated_registers_per_block = result.allocatedRegistersPerBlock;
  answer.allocated_shared_memory_per_block = result.allocatedSharedMemPerBlock;
  return answer;
}

int ToolkitMaxBlocksPerSm(const OracleDevice& device) {
  const cudaOccDeviceProp props = Properties(device);
  int value = -1;
  return cudaOccMaxBlocksPerMultiprocessor(&value, &props) == CUDA_OCC_SUCCESS ? value : -1;
}

int ToolkitSharedMemoryGranularity(const OracleDevice& device) {
  const cudaOccDeviceProp props = Properties(device);
  int value = -1;
  return cudaOccSMemAllocationGranularity(&value, &props) == CUDA_OCC_SUCCESS ? value : -1;
}

int ToolkitRegisterGranularity(const OracleDevice& device) {
  const cudaOccDeviceProp props = Properties(device);
  int value = -1;
  return cudaOccRegAllocationGranularity(&value, &props) == CUDA_OCC_SUCCESS ? value : -1;
}

int ToolkitSubPartitions(const OracleDevice& device) {
  const cudaOccDeviceProp props = Properties(device);
  int value = -1;
  return cudaOccSubPartitionsPerMultiprocessor(&value, &props) == CUDA_OCC_SUCCESS ? value : -1;
}

long long ToolkitCarveoutFor(const OracleDevice& device, std::size_t bytes) {
  const cudaOccDeviceProp props = Properties(device);
  std::size_t size = bytes;
  if (cudaOccAlignUpShmemSizeVoltaPlus(&size, &props) != CUDA_OCC_SUCCESS) return -1;
  return static_cast<long long>(size);
}

int ToolkitOneBarrierBlockLimit(const OracleDevice& device) {
  OccupancyInput input;
  input.threads_per_block = 32;
  input.registers_per_thread = 0;
  input.barriers_per_block = 1;
  return AskToolkit(device, input).limit_barriers;
}

}  // namespace gpuscope::analysis::testing
