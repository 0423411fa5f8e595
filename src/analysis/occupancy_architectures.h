// The per-SM limits that decide theoretical occupancy, for every compute capability from 7.0
// (Volta) to 12.1. The numbers are NVIDIA's published per-capability limits (CUDA C++
// Programming Guide, "Technical Specifications per Compute Capability") and the allocation
// rules of the toolkit's occupancy calculator (cuda_occupancy.h, which the runtime's
// cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees with: ../shared/notes/cupti.md §5.2).
// Nothing here needs a GPU, so `gpuscope occupancy --cc 8.6` works on a laptop and the
// `profile` command can compute occupancy for a report read anywhere.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope::analysis {

struct ArchitectureLimits {
  int major = 0;
  int minor = 0;
  std::string_view family;  // "Hopper", "Ampere GA10x": for headings

  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;

  int registers_per_sm = 65536;
  int max_registers_per_block = 65536;
  // The compiler's limit; the hardware would allow 256, no compiler emits it.
  int max_registers_per_thread = 255;
  // Registers go to warps, each warp's share (registers/thread x 32) rounded up to this.
  int register_allocation_unit = 256;
  // The register file is split between this many SM sub-partitions (schedulers). A block's
  // register check rounds its warps up to a multiple of it, because the hardware verifies a
  // launch as if every block used all sub-partitions (the Excel calculator's "warp
  // allocation granularity"); and each sub-partition holds whole warps only.
  int warp_allocation_granularity = 4;

  // Shared memory: the largest carveout, and the carveouts the L1/shared split can take
  // (bytes, ascending). A preference is rounded up to the next step.
  std::int64_t shared_memory_per_sm = 0;
  std::span<const int> carveout_steps_kb;
  int shared_memory_allocation_unit = 128;
  // Bytes the driver reserves in every block (cc >= 8.0), on top of what the kernel asks.
  int reserved_shared_memory_per_block = 0;
  // What a block may use without cudaFuncAttributeMaxDynamicSharedMemorySize, and with it.
  std::int64_t max_shared_memory_per_block = 48 * 1024;
  std::int64_t max_shared_memory_per_block_optin = 0;

  // Hardware block barriers per SM = max_blocks_per_sm x this. The toolkit's calculator
  // counts barriers only from cc 9.0 on (barriers_limit_occupancy).
  int barriers_per_block_slot = 2;
  bool barriers_limit_occupancy = false;
  // Barriers (bar.sync ids) one block may name.
  int max_barriers_per_block = 16;

  int max_threads_per_sm() const { return max_warps_per_sm * warp_size; }
  std::string Name() const;  // "9.0"
};

// Every supported capability, ascending (10.1 and 11.0 are the same chip, Thor, renamed
// in CUDA 13; both spellings are listed).
std::span<const ArchitectureLimits> SupportedArchitectures();

// An error names the capability and lists the supported ones.
StatusOr<ArchitectureLimits> FindArchitecture(int major, int minor);

// "9.0", "90", "sm_90", "12.1" -> the limits; an error for anything else.
StatusOr<ArchitectureLimits> ParseComputeCapability(std::string_view text);

// The carveout an SM uses for `bytes` of shared memory: the smallest step holding it.
// An error when `bytes` exceeds the largest step.
StatusOr<std::int64_t> RoundUpToCarveout(const ArchitectureLimits& arch, std::int64_t bytes);

}  // namespace gpuscope::analysis
