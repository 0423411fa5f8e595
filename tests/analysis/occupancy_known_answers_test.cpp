// Known answers worked out by hand from NVIDIA's rules, and the ones measured on our H200
// (../shared/notes/cupti.md §5.2: the runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor)
// and printed by Nsight Compute (reference 004's Occupancy section).
#include <gtest/gtest.h>

#include "analysis/occupancy.h"

namespace gpuscope::analysis {
namespace {

ArchitectureLimits Arch(std::string_view cc) {
  StatusOr<ArchitectureLimits> arch = ParseComputeCapability(cc);
  EXPECT_TRUE(arch.ok()) << arch.status().message();
  return arch.ok() ? arch.value() : ArchitectureLimits{};
}

OccupancyInput Launch(int threads, int registers, std::int64_t static_smem = 0,
                      std::int64_t dynamic_smem = 0) {
  OccupancyInput input;
  input.threads_per_block = threads;
  input.registers_per_thread = registers;
  input.static_shared_memory = static_smem;
  input.dynamic_shared_memory = dynamic_smem;
  return input;
}

OccupancyResult Compute(std::string_view cc, const OccupancyInput& input) {
  StatusOr<OccupancyResult> result = ComputeOccupancy(Arch(cc), input);
  EXPECT_TRUE(result.ok()) << result.status().message();
  return result.ok() ? result.value() : OccupancyResult{};
}

using R = OccupancyResource;

// H200, verified: saxpy (256 threads; 16 registers in the kernel record, 10 in
// cudaFuncAttributes) -> 8 blocks, 64 warps, limited by warps.
TEST(OccupancyKnownAnswers, H200Saxpy) {
  for (int registers : {16, 10}) {
    OccupancyResult r = Compute("9.0", Launch(256, registers));
    EXPECT_EQ(r.blocks_per_sm, 8);
    EXPECT_EQ(r.active_warps_per_sm, 64);
    EXPECT_DOUBLE_EQ(r.occupancy_percent, 100.0);
    EXPECT_EQ(r.BlockLimit(R::kWarps), 8);
    EXPECT_EQ(r.BlockLimit(R::kRegisters), 16);
    EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 228);  // the 1 KB reserve alone
    EXPECT_EQ(r.BlockLimit(R::kBlocks), 32);
    EXPECT_EQ(r.Limiters(), std::vector<R>{R::kWarps});
    EXPECT_EQ(r.allocated_registers_per_block, 8 * 512);
    EXPECT_EQ(r.allocated_shared_memory_per_block, 1024);
  }
}

// H200, verified: 32 registers, 16896 static + 1024 dynamic -> allocated 18944; limits
// registers 8, shared memory 12, warps 8 -> 8 blocks.
TEST(OccupancyKnownAnswers, H200SharedMemoryKernel) {
  OccupancyResult r = Compute("9.0", Launch(256, 32, 16896, 1024));
  EXPECT_EQ(r.allocated_shared_memory_per_block, 18944);
  EXPECT_EQ(r.BlockLimit(R::kRegisters), 8);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 12);
  EXPECT_EQ(r.BlockLimit(R::kWarps), 8);
  EXPECT_EQ(r.blocks_per_sm, 8);
  EXPECT_EQ(r.Limiters(), (std::vector<R>{R::kWarps, R::kRegisters}));
  EXPECT_EQ(r.shared_memory_carveout, 228 * 1024);
}

// H200, verified: 1024 threads with 48 KB of dynamic shared memory on top of static shared
// memory exceed the 48 KB a kernel may use without opting in -> 0 blocks, and the result
// says why. With the opt-in the same launch fits.
TEST(OccupancyKnownAnswers, H200FortyEightKilobytesDynamicCannotLaunch) {
  OccupancyInput input = Launch(1024, 32, 16896, 48 * 1024);
  OccupancyResult r = Compute("9.0", input);
  EXPECT_EQ(r.blocks_per_sm, 0);
  EXPECT_EQ(r.active_warps_per_sm, 0);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 0);
  EXPECT_EQ(r.Limiters(), std::vector<R>{R::kSharedMemory});
  EXPECT_NE(r.cannot_launch_reason.find("49152 bytes of dynamic shared memory"), std::string::npos)
      << r.cannot_launch_reason;
  EXPECT_NE(r.cannot_launch_reason.find("cudaFuncAttributeMaxDynamicSharedMemorySize"),
            std::string::npos)
      << r.cannot_launch_reason;

  input.max_dynamic_shared_memory = 48 * 1024;
  r = Compute("9.0", input);
  EXPECT_EQ(r.blocks_per_sm, 2);                 // warps: 64 / 32
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 3);  // 233472 / (16896 + 49152 + 1024)
  EXPECT_TRUE(r.cannot_launch_reason.empty());
}

// Nsight Compute, reference 004 (cc 9.0): 64 threads, 40 registers, ~1.94 KB dynamic shared
// memory, driver shared memory 1.02 KB, shared memory configuration 102.40 KB ->
// Block Limit Registers 24, Shared Mem 33, Warps 32, SM 32; 48 warps, 75 %.
TEST(OccupancyKnownAnswers, NsightComputeReference004) {
  OccupancyInput input = Launch(64, 40, 0, 1936);
  input.shared_memory_config = 100 * 1024;
  OccupancyResult r = Compute("9.0", input);
  EXPECT_EQ(r.BlockLimit(R::kRegisters), 24);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 33);
  EXPECT_EQ(r.BlockLimit(R::kWarps), 32);
  EXPECT_EQ(r.BlockLimit(R::kBlocks), 32);
  EXPECT_EQ(r.active_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(r.occupancy_percent, 75.0);
  EXPECT_EQ(r.Limiters(), std::vector<R>{R::kRegisters});

  // Without the configuration the driver chose, the calculator assumes the largest carveout,
  // as cudaOccupancyMaxActiveBlocksPerMultiprocessor does: only the shared-memory limit moves.
  input.shared_memory_config.reset();
  r = Compute("9.0", input);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 76);  // 233472 / 3072
  EXPECT_EQ(r.blocks_per_sm, 24);
}

// The issue's example: --cc 9.0 --threads 256 --regs 40 --smem 1984.
TEST(OccupancyKnownAnswers, IssueExample) {
  OccupancyResult r = Compute("9.0", Launch(256, 40, 1984));
  EXPECT_EQ(r.allocated_registers_per_block, 8 * 1280);
  EXPECT_EQ(r.BlockLimit(R::kRegisters), 6);      // 12 warps per sub-partition x 4 / 8
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 76);  // 233472 / 3072
  EXPECT_EQ(r.blocks_per_sm, 6);
  EXPECT_EQ(r.active_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(r.occupancy_percent, 75.0);
  EXPECT_EQ(r.Limiters(), std::vector<R>{R::kRegisters});
}

TEST(OccupancyKnownAnswers, AmpereGa10xHasFortyEightWarps) {
  OccupancyResult r = Compute("8.6", Launch(256, 32));
  EXPECT_EQ(r.BlockLimit(R::kWarps), 6);
  EXPECT_EQ(r.BlockLimit(R::kRegisters), 8);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 100);  // 100 KB / 1 KB reserve
  EXPECT_EQ(r.BlockLimit(R::kBlocks), 16);
  EXPECT_EQ(r.blocks_per_sm, 6);
  EXPECT_EQ(r.max_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(r.occupancy_percent, 100.0);
}

// Turing: 32 warps per SM, no reserve, so a kernel without shared memory is not limited by
// it at all; 64 registers x 1024 threads fill the register file exactly.
TEST(OccupancyKnownAnswers, TuringFullRegisterFile) {
  OccupancyResult r = Compute("7.5", Launch(1024, 64));
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), kUnlimitedBlocks);
  EXPECT_EQ(r.BlockLimit(R::kBarriers), kUnlimitedBlocks);  // not counted before 9.0
  EXPECT_EQ(r.blocks_per_sm, 1);
  EXPECT_EQ(r.active_warps_per_sm, 32);
  EXPECT_EQ(r.Limiters(), (std::vector<R>{R::kWarps, R::kRegisters}));
}

TEST(OccupancyKnownAnswers, TooManyRegistersPerBlockCannotLaunch) {
  // 65 registers -> 2080 per warp, allocated 2304; x 32 warps = 73728 > 65536.
  OccupancyResult r = Compute("7.0", Launch(1024, 65));
  EXPECT_EQ(r.blocks_per_sm, 0);
  EXPECT_EQ(r.Limiters(), std::vector<R>{R::kRegisters});
  EXPECT_NE(r.cannot_launch_reason.find("73728"), std::string::npos) << r.cannot_launch_reason;
  // The check counts warps in groups of four: 33 threads (2 warps) with 255 registers need
  // 8192 x 4 = 32768, which fits; 225 threads (8 warps) need 65536, which fits too.
  EXPECT_EQ(Compute("7.0", Launch(225, 255)).blocks_per_sm, 1);
  EXPECT_EQ(Compute("7.0", Launch(257, 255)).blocks_per_sm, 0);
}

TEST(OccupancyKnownAnswers, StaticSharedMemoryAtTheDefaultMaximum) {
  // 48 KB static + 1 KB reserve = 50176 bytes; 167936 / 50176 = 3 blocks on GA100.
  OccupancyResult r = Compute("8.0", Launch(128, 0, 48 * 1024));
  EXPECT_EQ(r.BlockLimit(R::kRegisters), kUnlimitedBlocks);
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 3);
  EXPECT_EQ(r.blocks_per_sm, 3);
  EXPECT_DOUBLE_EQ(r.occupancy_percent, 18.75);
}

TEST(OccupancyKnownAnswers, CarveoutPreferenceRoundsUpToAStep) {
  // 50 % of Ada's 100 KB is 50 KB, which rounds up to the 64 KB carveout.
  OccupancyInput input = Launch(256, 16, 10000);
  input.carveout_percent = 50;
  OccupancyResult r = Compute("8.9", input);
  EXPECT_EQ(r.shared_memory_carveout, 64 * 1024);
  EXPECT_EQ(r.allocated_shared_memory_per_block, 11136);  // 10000 + 1024 -> 128 units
  EXPECT_EQ(r.BlockLimit(R::kSharedMemory), 5);
  EXPECT_EQ(r.blocks_per_sm, 5);
  EXPECT_NEAR(r.occupancy_percent, 83.333, 0.001);

  // A preference smaller than one block takes the smallest carveout that holds the block.
  input.carveout_percent = 0;
  r = Compute("8.9", input);
  EXPECT_EQ(r.shared_memory_carveout, 16 * 1024);
  EXPECT_EQ(r.blocks_per_sm, 1);
}

TEST(OccupancyKnownAnswers, BarriersCountFromHopperOn) {
  OccupancyInput input = Launch(32, 16);
  input.barriers_per_block = 3;
  OccupancyResult r = Compute("9.0", input);  // 32 slots x 2 barriers / 3
  EXPECT_EQ(r.BlockLimit(R::kBarriers), 21);
  EXPECT_EQ(r.blocks_per_sm, 21);
  EXPECT_EQ(r.Limiters(), std::vector<R>{R::kBarriers});

  // GB20x has one barrier per block slot: one barrier per block ties with the block limit.
  r = Compute("12.0", Launch(32, 16));
  EXPECT_EQ(r.blocks_per_sm, 24);
  EXPECT_EQ(r.Limiters(), (std::vector<R>{R::kBlocks, R::kBarriers}));

  input.barriers_per_block = 0;
  EXPECT_EQ(Compute("9.0", input).BlockLimit(R::kBarriers), kUnlimitedBlocks);
}

TEST(OccupancyKnownAnswers, ExecutedConfigurationSmallerThanABlock) {
  OccupancyInput input = Launch(128, 32, 0, 20000);
  input.shared_memory_config = 16 * 1024;
  OccupancyResult r = Compute("9.0", input);
  EXPECT_EQ(r.blocks_per_sm, 0);
  EXPECT_NE(r.cannot_launch_reason.find("16384"), std::string::npos) << r.cannot_launch_reason;
}

TEST(OccupancyValidation, RejectsWhatNoLaunchCanHave) {
  const ArchitectureLimits hopper = Arch("9.0");
  struct Case {
    OccupancyInput input;
    std::string_view message;
  };
  OccupancyInput over_optin = Launch(32, 16, 0, 227 * 1024 + 1);
  OccupancyInput big_static = Launch(32, 16, 48 * 1024 + 1);
  OccupancyInput bad_carveout = Launch(32, 16);
  bad_carveout.carveout_percent = 101;
  OccupancyInput bad_config = Launch(32, 16);
  bad_config.shared_memory_config = 12345;
  OccupancyInput bad_barriers = Launch(32, 16);
  bad_barriers.barriers_per_block = 17;
  OccupancyInput bad_max_dynamic = Launch(32, 16, 1024);
  bad_max_dynamic.max_dynamic_shared_memory = 227 * 1024;
  const Case cases[] = {
      {Launch(0, 16), "threads per block must be 1 to 1024, not 0"},
      {Launch(1025, 16), "threads per block must be 1 to 1024, not 1025"},
      {Launch(32, 256), "registers per thread must be 0 to 255, not 256"},
      {Launch(32, -1), "registers per thread must be 0 to 255, not -1"},
      {Launch(32, 16, -1), "cannot be negative"},
      {big_static, "static shared memory is at most 49152 bytes per block"},
      {over_optin, "exceed the 232448 bytes a block of compute capability 9.0 may use"},
      {bad_carveout, "0 to 100, not 101"},
      {bad_config,
       "is one of 0 KB, 8 KB, 16 KB, 32 KB, 64 KB, 100 KB, 132 KB, 164 KB, 196 KB, "
       "228 KB, not 12345 bytes"},
      {bad_barriers, "barriers per block must be 0 to 16, not 17"},
      {bad_max_dynamic, "maximum dynamic shared memory must be 0 to 231424 bytes"},
  };
  for (const Case& c : cases) {
    Status status = ValidateOccupancyInput(hopper, c.input);
    ASSERT_FALSE(status.ok()) << c.message;
    EXPECT_NE(status.message().find(c.message), std::string::npos) << status.message();
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
    EXPECT_FALSE(ComputeOccupancy(hopper, c.input).ok()) << c.message;
  }
  // The largest shared memory is fine: it is an error only past the opt-in maximum.
  EXPECT_TRUE(ValidateOccupancyInput(hopper, Launch(32, 16, 0, 227 * 1024)).ok());
}

TEST(OccupancyArchitectures, ParsesCapabilitySpellings) {
  for (auto [text, major, minor] : {std::tuple{"9.0", 9, 0},
                                    {"90", 9, 0},
                                    {"sm_90", 9, 0},
                                    {"12.1", 12, 1},
                                    {"120", 12, 0},
                                    {"sm_100", 10, 0},
                                    {"7.5", 7, 5},
                                    {"11.0", 11, 0},
                                    {"10.1", 10, 1}}) {
    StatusOr<ArchitectureLimits> arch = ParseComputeCapability(text);
    ASSERT_TRUE(arch.ok()) << text << ": " << arch.status().message();
    EXPECT_EQ(arch->major, major) << text;
    EXPECT_EQ(arch->minor, minor) << text;
  }
  for (std::string_view bad : {"", "9", "9.", ".0", "9.x", "nine", "9.00", "sm_", "9.0.1"}) {
    StatusOr<ArchitectureLimits> arch = ParseComputeCapability(bad);
    ASSERT_FALSE(arch.ok()) << bad;
    EXPECT_NE(arch.status().message().find("is not a compute capability"), std::string::npos)
        << arch.status().message();
  }
  for (std::string_view unsupported : {"6.1", "13.0", "8.8"}) {
    StatusOr<ArchitectureLimits> arch = ParseComputeCapability(unsupported);
    ASSERT_FALSE(arch.ok()) << unsupported;
    EXPECT_NE(arch.status().message().find("is not supported (supported: 7.0, 7.2, 7.5, 8.0, 8.6, "
                                           "8.7, 8.9, 9.0, 10.0, 10.1, 10.3, 11.0, 12.0, 12.1)"),
              std::string::npos)
        << arch.status().message();
  }
}

TEST(OccupancyInputForKernel, TakesTheLaunchFromAKernelRecord) {
  model::KernelRecord kernel;
  kernel.block_x = 16;
  kernel.block_y = 8;
  kernel.block_z = 2;
  kernel.registers_per_thread = 40;
  kernel.static_shared_memory = 1000;
  kernel.dynamic_shared_memory = 60000;  // over the default: the kernel had opted in
  kernel.shared_memory_executed = 132 * 1024;
  OccupancyInput input = OccupancyInputForKernel(kernel);
  EXPECT_EQ(input.threads_per_block, 256);
  EXPECT_EQ(input.registers_per_thread, 40);
  EXPECT_EQ(input.static_shared_memory, 1000);
  EXPECT_EQ(input.dynamic_shared_memory, 60000);
  EXPECT_EQ(input.max_dynamic_shared_memory, std::optional<std::int64_t>(60000));
  EXPECT_EQ(input.shared_memory_config, std::optional<std::int64_t>(132 * 1024));
  OccupancyResult r = Compute("9.0", input);
  EXPECT_EQ(r.blocks_per_sm, 2);  // 135168 / 62080 (61000 + 1024 -> 128 units)

  kernel.dynamic_shared_memory = 4096;
  kernel.shared_memory_executed = 0;
  input = OccupancyInputForKernel(kernel);
  EXPECT_FALSE(input.max_dynamic_shared_memory.has_value());
  EXPECT_FALSE(input.shared_memory_config.has_value());
}

}  // namespace
}  // namespace gpuscope::analysis
