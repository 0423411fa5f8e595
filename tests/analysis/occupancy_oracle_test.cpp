// gpuscope's calculator against the toolkit's (cuda_occupancy.h) on every supported
// capability: its per-architecture table, exhaustive sweeps of block size x registers and of
// shared memory x carveout, and thousands of random launches.
#include <gtest/gtest.h>

#include <climits>
#include <random>
#include <sstream>

#include "analysis/occupancy.h"
#include "toolkit_oracle.h"

namespace gpuscope::analysis {
namespace {

using testing::AskToolkit;
using testing::OracleAnswer;
using testing::OracleDevice;
using testing::OracleDevices;

ArchitectureLimits ArchFor(const OracleDevice& device) {
  StatusOr<ArchitectureLimits> arch = FindArchitecture(device.major, device.minor);
  EXPECT_TRUE(arch.ok()) << arch.status().message();
  return arch.ok() ? arch.value() : ArchitectureLimits{};
}

std::string Describe(const ArchitectureLimits& arch, const OccupancyInput& input) {
  std::ostringstream text;
  text << "cc " << arch.Name() << ", " << input.threads_per_block << " threads, "
       << input.registers_per_thread << " regs, static " << input.static_shared_memory
       << ", dynamic " << input.dynamic_shared_memory << ", max dynamic "
       << (input.max_dynamic_shared_memory ? std::to_string(*input.max_dynamic_shared_memory)
                                           : "default")
       << ", carveout "
       << (input.carveout_percent ? std::to_string(*input.carveout_percent) : "default")
       << ", barriers " << input.barriers_per_block;
  return text.str();
}

// Every number both calculators report must agree. Returns false on the first mismatch so
// that a broken rule fails one configuration loudly instead of thousands.
bool MatchesToolkit(const OracleDevice& device, const ArchitectureLimits& arch,
                    const OccupancyInput& input) {
  const OracleAnswer expected = AskToolkit(device, input);
  StatusOr<OccupancyResult> actual = ComputeOccupancy(arch, input);
  EXPECT_TRUE(expected.ok) << "the toolkit rejected a configuration gpuscope accepts: "
                           << Describe(arch, input);
  EXPECT_TRUE(actual.ok()) << actual.status().message() << ": " << Describe(arch, input);
  if (!expected.ok || !actual.ok()) return false;
  const OccupancyResult& r = actual.value();
  EXPECT_EQ(r.blocks_per_sm, expected.blocks_per_sm) << Describe(arch, input);
  EXPECT_EQ(r.BlockLimit(OccupancyResource::kWarps), expected.limit_warps) << Describe(arch, input);
  EXPECT_EQ(r.BlockLimit(OccupancyResource::kRegisters), expected.limit_registers)
      << Describe(arch, input);
  EXPECT_EQ(r.BlockLimit(OccupancyResource::kSharedMemory), expected.limit_shared_memory)
      << Describe(arch, input);
  EXPECT_EQ(r.BlockLimit(OccupancyResource::kBlocks), expected.limit_blocks)
      << Describe(arch, input);
  EXPECT_EQ(r.BlockLimit(OccupancyResource::kBarriers), expected.limit_barriers)
      << Describe(arch, input);
  EXPECT_EQ(r.allocated_registers_per_block, expected.allocated_registers_per_block)
      << Describe(arch, input);
  EXPECT_EQ(r.allocated_shared_memory_per_block,
            static_cast<std::int64_t>(expected.allocated_shared_memory_per_block))
      << Describe(arch, input);
  EXPECT_EQ(r.active_warps_per_sm, expected.blocks_per_sm * r.warps_per_block)
      << Describe(arch, input);
  // The toolkit flags warps, registers, shared memory and blocks against the minimum before
  // it counts barriers, so when barriers alone lower the result it also flags the resource
  // that was the minimum before. gpuscope reports only resources that are at the result;
  // apart from that case the two sets are the same.
  const int without_barriers = std::min({expected.limit_warps, expected.limit_registers,
                                         expected.limit_shared_memory, expected.limit_blocks});
  if (expected.limit_barriers >= without_barriers) {
    unsigned bits = 0;
    if (r.IsLimiter(OccupancyResource::kWarps)) bits |= testing::kToolkitLimitWarps;
    if (r.IsLimiter(OccupancyResource::kRegisters)) bits |= testing::kToolkitLimitRegisters;
    if (r.IsLimiter(OccupancyResource::kSharedMemory)) bits |= testing::kToolkitLimitSharedMemory;
    if (r.IsLimiter(OccupancyResource::kBlocks)) bits |= testing::kToolkitLimitBlocks;
    if (r.IsLimiter(OccupancyResource::kBarriers)) bits |= testing::kToolkitLimitBarriers;
    EXPECT_EQ(bits, expected.limiting_factors) << Describe(arch, input);
  }
  EXPECT_EQ(r.blocks_per_sm == 0, !r.cannot_launch_reason.empty()) << Describe(arch, input);
  return !::testing::Test::HasFailure();
}

TEST(OccupancyAgainstToolkit, EveryCapabilityIsCovered) {
  ASSERT_EQ(OracleDevices().size(), SupportedArchitectures().size());
  for (std::size_t i = 0; i < OracleDevices().size(); ++i) {
    EXPECT_EQ(OracleDevices()[i].major, SupportedArchitectures()[i].major);
    EXPECT_EQ(OracleDevices()[i].minor, SupportedArchitectures()[i].minor);
  }
}

TEST(OccupancyAgainstToolkit, ArchitectureTableHasTheToolkitsRules) {
  for (const OracleDevice& device : OracleDevices()) {
    const ArchitectureLimits arch = ArchFor(device);
    SCOPED_TRACE("cc " + arch.Name());
    EXPECT_EQ(arch.max_threads_per_sm(), device.max_threads_per_sm);
    EXPECT_EQ(arch.shared_memory_per_sm, static_cast<std::int64_t>(device.shared_memory_per_sm));
    EXPECT_EQ(arch.max_shared_memory_per_block_optin,
              static_cast<std::int64_t>(device.shared_memory_per_block_optin));
    EXPECT_EQ(arch.reserved_shared_memory_per_block,
              static_cast<int>(device.reserved_shared_memory_per_block));
    EXPECT_EQ(arch.max_blocks_per_sm, testing::ToolkitMaxBlocksPerSm(device));
    EXPECT_EQ(arch.shared_memory_allocation_unit, testing::ToolkitSharedMemoryGranularity(device));
    EXPECT_EQ(arch.register_allocation_unit, testing::ToolkitRegisterGranularity(device));
    EXPECT_EQ(arch.warp_allocation_granularity, testing::ToolkitSubPartitions(device));
    const int barrier_limit = testing::ToolkitOneBarrierBlockLimit(device);
    if (arch.barriers_limit_occupancy) {
      EXPECT_EQ(arch.max_blocks_per_sm * arch.barriers_per_block_slot, barrier_limit);
    } else {
      EXPECT_EQ(barrier_limit, INT_MAX);
    }
    // Every shared-memory size, in allocation units and one past the largest carveout,
    // rounds up to the same carveout (or is rejected by both).
    for (std::int64_t bytes = 0; bytes <= arch.shared_memory_per_sm + 1024; bytes += 64) {
      const long long expected = testing::ToolkitCarveoutFor(device, bytes);
      StatusOr<std::int64_t> actual = RoundUpToCarveout(arch, bytes);
      if (expected < 0) {
        EXPECT_FALSE(actual.ok()) << bytes;
      } else {
        ASSERT_TRUE(actual.ok()) << bytes << ": " << actual.status().message();
        EXPECT_EQ(actual.value(), expected) << bytes;
      }
    }
  }
}

// Every block size from 1 to 1024 threads with every register count from 0 to 255: the
// warp, register and block limits in full.
TEST(OccupancyAgainstToolkit, EveryBlockSizeWithEveryRegisterCount) {
  for (const OracleDevice& device : OracleDevices()) {
    const ArchitectureLimits arch = ArchFor(device);
    for (int threads = 1; threads <= arch.max_threads_per_block; ++threads) {
      for (int registers = 0; registers <= arch.max_registers_per_thread; ++registers) {
        OccupancyInput input;
        input.threads_per_block = threads;
        input.registers_per_thread = registers;
        input.static_shared_memory = 2048;
        ASSERT_TRUE(MatchesToolkit(device, arch, input));
      }
    }
  }
}

// Every shared-memory size in allocation units up to the opt-in maximum, under several
// carveout preferences, opted in and not, split between static and dynamic.
TEST(OccupancyAgainstToolkit, EverySharedMemorySizeAndCarveout) {
  const std::optional<int> carveouts[] = {std::nullopt, 0, 1, 10, 25, 50, 66, 75, 99, 100};
  for (const OracleDevice& device : OracleDevices()) {
    const ArchitectureLimits arch = ArchFor(device);
    const std::int64_t step = arch.shared_memory_allocation_unit / 2;  // off-unit sizes too
    for (std::int64_t total = 0; total <= arch.max_shared_memory_per_block_optin; total += step) {
      for (const std::optional<int>& carveout : carveouts) {
        for (bool opted_in : {false, true}) {
          OccupancyInput input;
          input.threads_per_block = 128;
          input.registers_per_thread = 32;
          input.static_shared_memory = std::min<std::int64_t>(total / 3, 48 * 1024);
          input.dynamic_shared_memory = total - input.static_shared_memory;
          input.carveout_percent = carveout;
          if (opted_in) {
            input.max_dynamic_shared_memory =
                arch.max_shared_memory_per_block_optin - input.static_shared_memory;
          }
          ASSERT_TRUE(MatchesToolkit(device, arch, input));
        }
      }
    }
  }
}

// Random launches over the whole valid input space, reproducible from the seed.
TEST(OccupancyAgainstToolkit, RandomConfigurations) {
  constexpr int kPerCapability = 3000;
  constexpr unsigned kSeed = 20261121;
  std::mt19937 random(kSeed);
  auto uniform = [&](std::int64_t low, std::int64_t high) {
    return std::uniform_int_distribution<std::int64_t>(low, high)(random);
  };
  for (const OracleDevice& device : OracleDevices()) {
    const ArchitectureLimits arch = ArchFor(device);
    for (int i = 0; i < kPerCapability; ++i) {
      OccupancyInput input;
      // Half the block sizes are whole warps, as most launches are.
      input.threads_per_block = static_cast<int>(
          uniform(0, 1) ? 32 * uniform(1, 32) : uniform(1, arch.max_threads_per_block));
      input.registers_per_thread = static_cast<int>(uniform(0, arch.max_registers_per_thread));
      input.static_shared_memory = uniform(0, 3) == 0 ? 0 : uniform(0, 48 * 1024);
      const std::int64_t room = arch.max_shared_memory_per_block_optin - input.static_shared_memory;
      input.dynamic_shared_memory = uniform(0, 2) == 0 ? 0 : uniform(0, room);
      if (uniform(0, 1)) input.max_dynamic_shared_memory = uniform(0, room);
      if (uniform(0, 2)) input.carveout_percent = static_cast<int>(uniform(0, 100));
      input.barriers_per_block = static_cast<int>(uniform(0, 3) ? 1 : uniform(0, 16));
      ASSERT_TRUE(MatchesToolkit(device, arch, input)) << "seed " << kSeed << ", draw " << i;
    }
  }
}

}  // namespace
}  // namespace gpuscope::analysis
