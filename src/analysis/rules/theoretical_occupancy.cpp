// Theoretical occupancy below the device's maximum, limited by a resource, with the change
// that lifts it: the register or shared-memory budget that fits one more block per SM.
#include "analysis/rules/all_rules.h"

namespace gpuscope::analysis::rules {
namespace {

OccupancyInput InputFor(const metrics::KernelProfile& p, int registers, std::int64_t static_smem) {
  OccupancyInput input;
  input.threads_per_block = p.block[0] * p.block[1] * p.block[2];
  input.registers_per_thread = registers;
  input.static_shared_memory = static_smem;
  input.dynamic_shared_memory = p.dynamic_shared_memory;
  if (p.dynamic_shared_memory + static_smem > 48 * 1024) {
    input.max_dynamic_shared_memory = p.dynamic_shared_memory;
  }
  return input;
}

int BlocksWith(const ArchitectureLimits& arch, const OccupancyInput& input) {
  const StatusOr<OccupancyResult> result = ComputeOccupancy(arch, input);
  return result.ok() ? result->blocks_per_sm : 0;
}

// The most registers per thread that still fit `blocks` blocks; -1 when none does.
int RegistersFor(const ArchitectureLimits& arch, const metrics::KernelProfile& p, int blocks) {
  for (int regs = static_cast<int>(p.registers_per_thread) - 1; regs >= 16; --regs) {
    if (BlocksWith(arch, InputFor(p, regs, p.static_shared_memory)) >= blocks) return regs;
  }
  return -1;
}

// The most static shared memory per block that still fits `blocks` blocks; -1 when none.
std::int64_t SharedMemoryFor(const ArchitectureLimits& arch, const metrics::KernelProfile& p,
                             int blocks) {
  for (std::int64_t smem = static_cast<std::int64_t>(p.static_shared_memory) - 128; smem >= 0;
       smem -= 128) {
    if (BlocksWith(arch, InputFor(p, static_cast<int>(p.registers_per_thread), smem)) >= blocks) {
      return smem + p.dynamic_shared_memory;
    }
  }
  return -1;
}

std::string Advice(const RuleInputs& in, const OccupancyResult& r, OccupancyResource limiter) {
  const metrics::KernelProfile& p = in.profile();
  const int next = r.blocks_per_sm + 1;
  auto arch = FindArchitecture(static_cast<int>(p.device.compute_major),
                               static_cast<int>(p.device.compute_minor));
  switch (limiter) {
    case OccupancyResource::kRegisters: {
      const int regs = arch.ok() ? RegistersFor(*arch, p, next) : -1;
      std::string text =
          "It uses " + std::to_string(p.registers_per_thread) + " registers per thread";
      if (regs > 0) {
        text += ": use at most " + std::to_string(regs) + " registers (__launch_bounds__(" +
                std::to_string(in.threads_per_block()) + ", " + std::to_string(next) +
                ") or -maxrregcount=" + std::to_string(regs) + ") to fit " + std::to_string(next) +
                " blocks per SM";
      }
      return text + ".";
    }
    case OccupancyResource::kSharedMemory: {
      const std::int64_t smem = arch.ok() ? SharedMemoryFor(*arch, p, next) : -1;
      std::string text = "Each block allocates " +
                         std::to_string(r.allocated_shared_memory_per_block) +
                         " bytes of shared memory";
      if (smem >= 0) {
        text += ": use at most " + std::to_string(smem) + " bytes per block to fit " +
                std::to_string(next) + " blocks per SM";
      }
      return text + ".";
    }
    case OccupancyResource::kBlocks:
      return "The SM runs at most " + std::to_string(r.BlockLimit(limiter)) + " blocks of " +
             std::to_string(in.threads_per_block()) + " threads: use larger blocks.";
    case OccupancyResource::kWarps:
      return "The block size of " + std::to_string(in.threads_per_block()) +
             " threads does not divide the SM's warp slots: choose a block size that does.";
    case OccupancyResource::kBarriers:
      return "The kernel's barriers limit the blocks per SM.";
  }
  return {};
}

std::optional<Finding> EvaluateTheoreticalOccupancy(const RuleInputs& in) {
  const auto& occupancy = in.occupancy();
  if (!occupancy || occupancy->blocks_per_sm <= 0 || occupancy->occupancy_percent >= 100.0 ||
      in.grid_smaller_than_sms() || !in.sm_pct()) {
    return std::nullopt;
  }
  const OccupancyResult& r = *occupancy;
  const std::vector<OccupancyResource> limiters = r.Limiters();
  if (limiters.empty()) return std::nullopt;
  const OccupancyResource limiter = limiters.front();
  // Speedup = (1 - theoretical occupancy) x (1 - busiest unit %): more warps only help while
  // the units are idle (latency-hiding).
  const double speedup = in.LatencySpeedup(1.0 - r.occupancy_percent / 100.0);
  const double warps_per_scheduler = r.active_warps_per_sm / 4.0;
  std::string message = "The " + Fixed(warps_per_scheduler, 2) +
                        " theoretical warps per scheduler this kernel can issue according to its "
                        "occupancy are below the hardware maximum of " +
                        Fixed(r.max_warps_per_sm / 4.0, 0) +
                        ". This kernel's theoretical occupancy (" + Fixed(r.occupancy_percent, 1) +
                        "%) is limited by the number of " + std::string(ResourceName(limiter)) +
                        " (" + std::to_string(r.blocks_per_sm) + " blocks per SM). " +
                        Advice(in, r, limiter);
  if (in.near_roof()) {
    message += " The kernel already runs at " + Fixed(in.busiest_pct(), 1) + "% of the " +
               in.busiest_unit() + " roof, so more warps gain little.";
  }
  return MakeFinding(TheoreticalOccupancyRule(), "Theoretical Occupancy", message, speedup);
}

}  // namespace

const Rule& TheoreticalOccupancyRule() {
  static const Rule rule{
      "theoretical_occupancy",
      "Occupancy",
      Severity::kOpt,
      "theoretical occupancy (our calculator) below 100%, with the limiting resource and the "
      "register or shared-memory budget that fits one more block",
      "(1 - theoretical occupancy) x (1 - busiest unit throughput %)",
      EvaluateTheoreticalOccupancy};
  return rule;
}

}  // namespace gpuscope::analysis::rules
