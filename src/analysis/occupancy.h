// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, which resource
// stops the next one, and what each block is allocated. The rules are those of the toolkit's
// occupancy calculator (cuda_occupancy.h) and the runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor, which agree (../shared/notes/cupti.md §5.2);
// the tests compare this code with the toolkit's header over thousands of configurations on
// every supported capability. Nsight Compute's `launch__occupancy_limit_*` metrics are the
// same block limits.
#pragma once

#include <array>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/occupancy_architectures.h"
#include "model/records.h"
#include "util/status.h"

namespace gpuscope::analysis {

// A launch configuration as the calculator sees it.
struct OccupancyInput {
  int threads_per_block = 0;
  int registers_per_thread = 0;
  std::int64_t static_shared_memory = 0;   // bytes per block (__shared__ variables)
  std::int64_t dynamic_shared_memory = 0;  // bytes per block (the launch's third <<<>>> value)
  // The kernel's cudaFuncAttributeMaxDynamicSharedMemorySize. Unset: CUDA's default, the
  // per-block maximum without opt-in (48 KB) minus the static shared memory.
  std::optional<std::int64_t> max_dynamic_shared_memory;
  // cudaFuncAttributePreferredSharedMemoryCarveout, percent of the largest carveout (0..100).
  // Unset: no preference, the largest carveout.
  std::optional<int> carveout_percent;
  // The carveout the SM actually ran with (CUPTI's sharedMemoryExecuted, Nsight Compute's
  // "Shared Memory Configuration Size"), bytes; one of the architecture's steps. When set it
  // replaces the one derived from the preference. The driver picks the smallest carveout
  // that reaches the kernel's occupancy, so Nsight Compute's "Block Limit Shared Mem" is
  // counted against it, and equals ours only when this is given.
  std::optional<std::int64_t> shared_memory_config;
  // Block barriers the kernel uses; 1 is what the runtime assumes for every kernel.
  int barriers_per_block = 1;
};

// The resources that limit blocks per SM, in the order reports list them.
enum class OccupancyResource { kWarps, kRegisters, kSharedMemory, kBlocks, kBarriers };
inline constexpr std::array<OccupancyResource, 5> kOccupancyResources = {
    OccupancyResource::kWarps, OccupancyResource::kRegisters, OccupancyResource::kSharedMemory,
    OccupancyResource::kBlocks, OccupancyResource::kBarriers};

// "warps", "registers", "shared memory", "blocks", "barriers".
std::string_view ResourceName(OccupancyResource resource);

// A block limit for a resource the kernel does not use (no registers, no shared memory, or
// barriers on a capability whose calculator does not count them).
inline constexpr int kUnlimitedBlocks = INT_MAX;

struct OccupancyResult {
  int warps_per_block = 0;
  int blocks_per_sm = 0;  // the theoretical active blocks; 0: the launch cannot run
  int active_warps_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy_percent = 0;  // active warps / max warps x 100

  // Blocks per SM each resource allows on its own (kUnlimitedBlocks when unused), indexed by
  // OccupancyResource.
  std::array<int, kOccupancyResources.size()> block_limits{};
  int BlockLimit(OccupancyResource resource) const {
    return block_limits[static_cast<std::size_t>(resource)];
  }
  // The resources whose limit is the result (ties are all reported, like Nsight Compute).
  bool IsLimiter(OccupancyResource resource) const { return BlockLimit(resource) == blocks_per_sm; }
  std::vector<OccupancyResource> Limiters() const;

  int allocated_registers_per_warp = 0;
  int allocated_registers_per_block = 0;
  // Static + dynamic + the driver's reserve, rounded up to the allocation unit.
  std::int64_t allocated_shared_memory_per_block = 0;
  // The SM's shared-memory carveout the blocks share (the preference, or more when one
  // block needs more), and the most one block may use.
  std::int64_t shared_memory_carveout = 0;
  std::int64_t shared_memory_limit_per_block = 0;

  // Why no block fits, one sentence per exhausted resource; empty when blocks_per_sm > 0.
  std::string cannot_launch_reason;
};

// An error (one line) for a configuration that is not a launch on this capability at all:
// threads outside 1..1024, registers outside 0..255, static shared memory over 48 KB, shared
// memory over the opt-in maximum per block, a carveout outside 0..100, a shared-memory
// configuration that is not one of the architecture's carveouts, barriers outside 0..16. A valid
// launch that fits no block on an SM is not an error: its result has blocks_per_sm 0 and says why.
Status ValidateOccupancyInput(const ArchitectureLimits& arch, const OccupancyInput& input);

StatusOr<OccupancyResult> ComputeOccupancy(const ArchitectureLimits& arch,
                                           const OccupancyInput& input);

// The configuration a recorded kernel launched with, including the carveout it ran with. A
// kernel that ran with more dynamic shared memory than the default allows had opted in, so
// its maximum is set to what it used.
OccupancyInput OccupancyInputForKernel(const model::KernelRecord& kernel);

// The same rules for a launch described field by field (a profiled kernel): `block_threads`
// threads per block, the carveout only when `shared_memory_executed` > 0.
OccupancyInput OccupancyInputForLaunch(int block_threads, int registers_per_thread,
                                       std::int64_t static_shared_memory,
                                       std::int64_t dynamic_shared_memory,
                                       std::int64_t shared_memory_executed);

}  // namespace gpuscope::analysis
