// The test oracle: the CUDA toolkit's own occupancy calculator, cuda_occupancy.h. It is
// header-only and needs no GPU, and cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees
// with it (verified on the H200, ../shared/notes/cupti.md §5.2). Only the tests include it:
// gpuscope's calculator is written independently, and these tests hold the two to the same
// answers.
//
// The devices are described the way cudaGetDeviceProperties describes real ones, from
// NVIDIA's published per-capability limits; the rules for each capability (block slots,
// carveouts, granularities, barriers) come from the header itself.
#pragma once

#include <cstddef>
#include <span>

#include "analysis/occupancy.h"

namespace gpuscope::analysis::testing {

struct OracleDevice {
  int major = 0;
  int minor = 0;
  int max_threads_per_sm = 0;
  std::size_t shared_memory_per_sm = 0;
  std::size_t shared_memory_per_block_optin = 0;
  std::size_t reserved_shared_memory_per_block = 0;
};

// One device per capability gpuscope supports, ascending.
std::span<const OracleDevice> OracleDevices();

struct OracleAnswer {
  bool ok = false;  // the toolkit accepted the input
  int blocks_per_sm = 0;
  unsigned limiting_factors = 0;  // cudaOccLimitingFactor bits
  int limit_warps = 0, limit_registers = 0, limit_shared_memory = 0, limit_blocks = 0,
      limit_barriers = 0;
  int allocated_registers_per_block = 0;
  std::size_t allocated_shared_memory_per_block = 0;
};

// The toolkit's answer for `input` on `device`, with the function attributes the runtime
// derives from cudaFuncGetAttributes (opt-in shared-memory limit mode, the kernel's maximum
// dynamic shared memory, its barrier count). `input.shared_memory_config` has no equivalent
// there and must be unset.
OracleAnswer AskToolkit(const OracleDevice& device, const OccupancyInput& input);

// Rules read from the header for one capability, to check gpuscope's table against.
int ToolkitMaxBlocksPerSm(const OracleDevice& device);
int ToolkitSharedMemoryGranularity(const OracleDevice& device);
int ToolkitRegisterGranularity(const OracleDevice& device);
int ToolkitSubPartitions(const OracleDevice& device);
// The carveout the header rounds `bytes` up to; -1 when it rejects the size.
long long ToolkitCarveoutFor(const OracleDevice& device, std::size_t bytes);
// Barrier-limited blocks per SM for a kernel that uses one barrier (INT_MAX when the
// toolkit does not count barriers on this capability).
int ToolkitOneBarrierBlockLimit(const OracleDevice& device);

// cudaOccLimitingFactor bits, named for the tests.
inline constexpr unsigned kToolkitLimitWarps = 0x01, kToolkitLimitRegisters = 0x02,
                          kToolkitLimitSharedMemory = 0x04, kToolkitLimitBlocks = 0x08,
                          kToolkitLimitBarriers = 0x10;

}  // namespace gpuscope::analysis::testing
