#include "analysis/occupancy.h"

#include <algorithm>

namespace gpuscope::analysis {
namespace {

std::int64_t CeilDiv(std::int64_t value, std::int64_t unit) { return (value + unit - 1) / unit; }
std::int64_t RoundUp(std::int64_t value, std::int64_t unit) { return CeilDiv(value, unit) * unit; }

int& Limit(OccupancyResult& result, OccupancyResource resource) {
  return result.block_limits[static_cast<std::size_t>(resource)];
}

void AddReason(OccupancyResult& result, const std::string& sentence) {
  if (!result.cannot_launch_reason.empty()) result.cannot_launch_reason += ' ';
  result.cannot_launch_reason += sentence;
}

std::string Bytes(std::int64_t bytes) { return std::to_string(bytes) + " bytes"; }

// Registers are allocated per warp; each SM sub-partition holds whole warps only, so the
// register limit is counted per sub-partition and multiplied up.
void ApplyRegisterLimit(const ArchitectureLimits& arch, const OccupancyInput& input,
                        OccupancyResult& result) {
  const int warps = result.warps_per_block;
  const int per_warp = static_cast<int>(RoundUp(
      std::int64_t{input.registers_per_thread} * arch.warp_size, arch.register_allocation_unit));
  result.allocated_registers_per_warp = per_warp;
  result.allocated_registers_per_block = per_warp * warps;
  // The hardware checks a block as if it spread over every sub-partition.
  const std::int64_t checked_per_block =
      std::int64_t{per_warp} * RoundUp(warps, arch.warp_allocation_granularity);

  int& limit = Limit(result, OccupancyResource::kRegisters);
  if (checked_per_block > arch.max_registers_per_block) {
    limit = 0;
    AddReason(result, "Registers: " + std::to_string(input.registers_per_thread) +
                          " registers per thread need " + std::to_string(checked_per_block) +
                          " per block (" + std::to_string(per_warp) + " per warp x " +
                          std::to_string(RoundUp(warps, arch.warp_allocation_granularity)) +
                          " warps, counted in groups of " +
                          std::to_string(arch.warp_allocation_granularity) + "), more than the " +
                          std::to_string(arch.max_registers_per_block) + " a block may use.");
    return;
  }
  if (per_warp == 0) {
    limit = kUnlimitedBlocks;
    return;
  }
  const int per_sub_partition = arch.registers_per_sm / arch.warp_allocation_granularity;
  const int warps_per_sm = (per_sub_partition / per_warp) * arch.warp_allocation_granularity;
  limit = warps_per_sm / warps;
}

// The SM's shared memory is split with L1 in a few fixed carveouts. The kernel's preference
// picks one; when a single block needs more than the preferred carveout, the driver takes the
// smallest carveout that holds one block instead.
Status ApplySharedMemoryLimit(const ArchitectureLimits& arch, const OccupancyInput& input,
                              OccupancyResult& result) {
  const std::int64_t reserved = arch.reserved_shared_memory_per_block;
  const std::int64_t requested =
      input.static_shared_memory + input.dynamic_shared_memory + reserved;
  const std::int64_t allocated = RoundUp(requested, arch.shared_memory_allocation_unit);
  result.allocated_shared_memory_per_block = allocated;

  const std::int64_t max_dynamic = input.max_dynamic_shared_memory.value_or(
      arch.max_shared_memory_per_block - input.static_shared_memory);
  // A kernel whose possible use (its maximum, with the reserve) exceeds the default per-block
  // maximum has opted in, and gets the opt-in maximum. The reserve is counted here as the
  // toolkit's calculator counts it, so from cc 8.0 on every kernel gets the opt-in limit and
  // the kernel's maximum dynamic size is the gate that matters.
  const bool opted_in =
      input.static_shared_memory + reserved + max_dynamic > arch.max_shared_memory_per_block;
  result.shared_memory_limit_per_block =
      (opted_in ? arch.max_shared_memory_per_block_optin : arch.max_shared_memory_per_block) +
      reserved;

  int& limit = Limit(result, OccupancyResource::kSharedMemory);
  if (input.dynamic_shared_memory > max_dynamic) {
    limit = 0;
    AddReason(result, "Shared memory: the launch asks for " + Bytes(input.dynamic_shared_memory) +
                          " of dynamic shared memory, more than the kernel's maximum of " +
                          Bytes(max_dynamic) + " (" +
                          (input.max_dynamic_shared_memory
                               ? std::string("its cudaFuncAttributeMaxDynamicSharedMemorySize")
                               : Bytes(arch.max_shared_memory_per_block) +
                                     " per block minus its static shared memory; raise it with "
                                     "cudaFuncAttributeMaxDynamicSharedMemorySize") +
                          ").");
    return {};
  }
  if (allocated > result.shared_memory_limit_per_block) {
    limit = 0;
    AddReason(result, "Shared memory: a block needs " + Bytes(allocated) +
                          " (static, dynamic and reserved, rounded up to " +
                          Bytes(arch.shared_memory_allocation_unit) + "), more than the " +
                          Bytes(result.shared_memory_limit_per_block) + " a block may use.");
    return {};
  }

  if (input.shared_memory_config) {
    // What the SM ran with: no rounding up for one block, that already happened.
    result.shared_memory_carveout = *input.shared_memory_config;
  } else {
    const std::int64_t preferred = input.carveout_percent
                                       ? *input.carveout_percent * arch.shared_memory_per_sm / 100
                                       : arch.shared_memory_per_sm;
    StatusOr<std::int64_t> carveout = RoundUpToCarveout(arch, preferred);
    if (!carveout.ok()) return carveout.status();
    if (*carveout < allocated) {
      carveout = RoundUpToCarveout(arch, allocated);
      if (!carveout.ok()) return carveout.status();
    }
    result.shared_memory_carveout = *carveout;
  }
  limit = allocated > 0 ? static_cast<int>(result.shared_memory_carveout / allocated)
                        : kUnlimitedBlocks;
  if (limit == 0) {
    AddReason(result, "Shared memory: a block needs " + Bytes(allocated) +
                          ", more than the SM's shared-memory configuration of " +
                          Bytes(result.shared_memory_carveout) + ".");
  }
  return {};
}

// Named barriers are an SM-wide pool (cc >= 9.0 in the toolkit's calculator).
void ApplyBarrierLimit(const ArchitectureLimits& arch, const OccupancyInput& input,
                       OccupancyResult& result) {
  int& limit = Limit(result, OccupancyResource::kBarriers);
  if (!arch.barriers_limit_occupancy || input.barriers_per_block == 0) {
    limit = kUnlimitedBlocks;
    return;
  }
  const int available = arch.max_blocks_per_sm * arch.barriers_per_block_slot;
  limit = available / input.barriers_per_block;
  if (limit == 0) {
    AddReason(result, "Barriers: a block uses " + std::to_string(input.barriers_per_block) +
                          " barriers, more than the " + std::to_string(available) + " of an SM.");
  }
}

}  // namespace

std::string_view ResourceName(OccupancyResource resource) {
  switch (resource) {
    case OccupancyResource::kWarps:
      return "warps";
    case OccupancyResource::kRegisters:
      return "registers";
    case OccupancyResource::kSharedMemory:
      return "shared memory";
    case OccupancyResource::kBlocks:
      return "blocks";
    case OccupancyResource::kBarriers:
      return "barriers";
  }
  return "?";
}

std::vector<OccupancyResource> OccupancyResult::Limiters() const {
  std::vector<OccupancyResource> limiters;
  for (OccupancyResource resource : kOccupancyResources) {
    if (IsLimiter(resource)) limiters.push_back(resource);
  }
  return limiters;
}

Status ValidateOccupancyInput(const ArchitectureLimits& arch, const OccupancyInput& input) {
  auto cc = [&] { return "compute capability " + arch.Name(); };
  if (input.threads_per_block < 1 || input.threads_per_block > arch.max_threads_per_block) {
    return Status::Error("threads per block must be 1 to " +
                         std::to_string(arch.max_threads_per_block) + ", not " +
                         std::to_string(input.threads_per_block));
  }
  if (input.registers_per_thread < 0 ||
      input.registers_per_thread > arch.max_registers_per_thread) {
    return Status::Error("registers per thread must be 0 to " +
                         std::to_string(arch.max_registers_per_thread) + ", not " +
                         std::to_string(input.registers_per_thread));
  }
  if (input.static_shared_memory < 0 || input.dynamic_shared_memory < 0) {
    return Status::Error("shared memory sizes cannot be negative");
  }
  if (input.static_shared_memory > arch.max_shared_memory_per_block) {
    return Status::Error("static shared memory is at most " +
                         Bytes(arch.max_shared_memory_per_block) + " per block, not " +
                         Bytes(input.static_shared_memory) +
                         " (larger buffers must be dynamic shared memory)");
  }
  const std::int64_t total = input.static_shared_memory + input.dynamic_shared_memory;
  if (total > arch.max_shared_memory_per_block_optin) {
    return Status::Error(Bytes(total) + " of shared memory per block (static " +
                         std::to_string(input.static_shared_memory) + " + dynamic " +
                         std::to_string(input.dynamic_shared_memory) + ") exceed the " +
                         Bytes(arch.max_shared_memory_per_block_optin) + " a block of " + cc() +
                         " may use even with opt-in");
  }
  if (input.max_dynamic_shared_memory &&
      (*input.max_dynamic_shared_memory < 0 ||
       input.static_shared_memory + *input.max_dynamic_shared_memory >
           arch.max_shared_memory_per_block_optin)) {
    return Status::Error(
        "the maximum dynamic shared memory must be 0 to " +
        Bytes(arch.max_shared_memory_per_block_optin - input.static_shared_memory) +
        " (the opt-in maximum of " + cc() + " minus the static shared memory), not " +
        Bytes(*input.max_dynamic_shared_memory));
  }
  if (input.carveout_percent && (*input.carveout_percent < 0 || *input.carveout_percent > 100)) {
    return Status::Error("the shared-memory carveout is a percentage, 0 to 100, not " +
                         std::to_string(*input.carveout_percent));
  }
  if (input.shared_memory_config) {
    bool is_step = false;
    std::string steps;
    for (int step_kb : arch.carveout_steps_kb) {
      is_step = is_step || *input.shared_memory_config == std::int64_t{step_kb} * 1024;
      steps += (steps.empty() ? "" : ", ") + std::to_string(step_kb) + " KB";
    }
    if (!is_step) {
      return Status::Error("the shared-memory configuration of " + cc() + " is one of " + steps +
                           ", not " + Bytes(*input.shared_memory_config));
    }
  }
  if (input.barriers_per_block < 0 || input.barriers_per_block > arch.max_barriers_per_block) {
    return Status::Error("barriers per block must be 0 to " +
                         std::to_string(arch.max_barriers_per_block) + ", not " +
                         std::to_string(input.barriers_per_block));
  }
  return {};
}

StatusOr<OccupancyResult> ComputeOccupancy(const ArchitectureLimits& arch,
                                           const OccupancyInput& input) {
  GPUSCOPE_RETURN_IF_ERROR(ValidateOccupancyInput(arch, input));
  OccupancyResult result;
  result.max_warps_per_sm = arch.max_warps_per_sm;
  result.warps_per_block = static_cast<int>(CeilDiv(input.threads_per_block, arch.warp_size));
  Limit(result, OccupancyResource::kWarps) = arch.max_warps_per_sm / result.warps_per_block;
  Limit(result, OccupancyResource::kBlocks) = arch.max_blocks_per_sm;
  ApplyRegisterLimit(arch, input, result);
  GPUSCOPE_RETURN_IF_ERROR(ApplySharedMemoryLimit(arch, input, result));
  ApplyBarrierLimit(arch, input, result);

  result.blocks_per_sm = *std::min_element(result.block_limits.begin(), result.block_limits.end());
  result.active_warps_per_sm = result.blocks_per_sm * result.warps_per_block;
  result.occupancy_percent = 100.0 * result.active_warps_per_sm / result.max_warps_per_sm;
  return result;
}

OccupancyInput OccupancyInputForLaunch(int block_threads, int registers_per_thread,
                                       std::int64_t static_shared_memory,
                                       std::int64_t dynamic_shared_memory,
                                       std::int64_t shared_memory_executed) {
  OccupancyInput input;
  input.threads_per_block = block_threads;
  input.registers_per_thread = registers_per_thread;
  input.static_shared_memory = static_shared_memory;
  input.dynamic_shared_memory = dynamic_shared_memory;
  const std::int64_t default_max =
      ArchitectureLimits{}.max_shared_memory_per_block - static_shared_memory;
  if (dynamic_shared_memory > default_max) input.max_dynamic_shared_memory = dynamic_shared_memory;
  if (shared_memory_executed > 0) input.shared_memory_config = shared_memory_executed;
  return input;
}

OccupancyInput OccupancyInputForKernel(const model::KernelRecord& kernel) {
  return OccupancyInputForLaunch(kernel.block_x * kernel.block_y * kernel.block_z,
                                 kernel.registers_per_thread, kernel.static_shared_memory,
                                 kernel.dynamic_shared_memory, kernel.shared_memory_executed);
}

}  // namespace gpuscope::analysis
