#include "analysis/occupancy_graphs.h"

#include <gtest/gtest.h>

namespace gpuscope::analysis {
namespace {

ArchitectureLimits ArchOf(std::string_view cc) {
  StatusOr<ArchitectureLimits> arch = ParseComputeCapability(cc);
  EXPECT_TRUE(arch.ok());
  return arch.value();
}

OccupancyInput IssueExample() {
  OccupancyInput input;
  input.threads_per_block = 256;
  input.registers_per_thread = 40;
  input.static_shared_memory = 1984;
  return input;
}

TEST(OccupancyGraphs, CoverTheDocumentedRanges) {
  for (const ArchitectureLimits& arch : SupportedArchitectures()) {
    StatusOr<std::vector<OccupancyGraph>> graphs = ComputeOccupancyGraphs(arch, IssueExample());
    ASSERT_TRUE(graphs.ok()) << graphs.status().message();
    ASSERT_EQ(graphs->size(), 3u);
    const OccupancyGraph& block = (*graphs)[0];
    const OccupancyGraph& registers = (*graphs)[1];
    const OccupancyGraph& shared = (*graphs)[2];
    EXPECT_EQ(block.kind, OccupancyGraphKind::kBlockSize);
    EXPECT_EQ(block.points.size(), 32u);
    EXPECT_EQ(block.points.front().x, 32);
    EXPECT_EQ(block.points.back().x, 1024);
    EXPECT_EQ(block.current_x, 256);
    EXPECT_EQ(registers.kind, OccupancyGraphKind::kRegisters);
    EXPECT_EQ(registers.points.size(), 255u);
    EXPECT_EQ(registers.points.front().x, 1);
    EXPECT_EQ(registers.points.back().x, 255);
    EXPECT_EQ(registers.current_x, 40);
    EXPECT_EQ(shared.kind, OccupancyGraphKind::kSharedMemory);
    EXPECT_EQ(shared.points.front().x, 0);
    EXPECT_EQ(shared.points.back().x, arch.max_shared_memory_per_block_optin);
    EXPECT_EQ(shared.points[1].x, arch.shared_memory_allocation_unit);
    EXPECT_EQ(shared.current_x, 1984);
  }
}

// Each point is the calculator's own answer for the varied launch.
TEST(OccupancyGraphs, PointsAreTheCalculatorsAnswers) {
  const ArchitectureLimits arch = ArchOf("9.0");
  const OccupancyInput input = IssueExample();
  StatusOr<std::vector<OccupancyGraph>> graphs = ComputeOccupancyGraphs(arch, input);
  ASSERT_TRUE(graphs.ok());
  for (const OccupancyGraphPoint& point : (*graphs)[0].points) {
    OccupancyInput varied = input;
    varied.threads_per_block = static_cast<int>(point.x);
    OccupancyResult expected = ComputeOccupancy(arch, varied).value();
    EXPECT_EQ(point.active_warps_per_sm, expected.active_warps_per_sm) << point.x;
    EXPECT_EQ(point.limiters, expected.Limiters()) << point.x;
  }
  for (const OccupancyGraphPoint& point : (*graphs)[1].points) {
    OccupancyInput varied = input;
    varied.registers_per_thread = static_cast<int>(point.x);
    EXPECT_EQ(point.blocks_per_sm, ComputeOccupancy(arch, varied)->blocks_per_sm) << point.x;
  }
  // Known points: 40 registers -> 48 warps (75 %); 32 -> 64; 128 -> 16 (2 blocks of 8).
  EXPECT_EQ((*graphs)[1].points[39].active_warps_per_sm, 48);
  EXPECT_EQ((*graphs)[1].points[31].active_warps_per_sm, 64);
  EXPECT_EQ((*graphs)[1].points[127].active_warps_per_sm, 16);
  // Shared memory: 0 bytes still allocates the 1 KB reserve; 227 KB fits one block.
  EXPECT_EQ((*graphs)[2].points.front().blocks_per_sm, 6);  // registers limit
  EXPECT_EQ((*graphs)[2].points.back().blocks_per_sm, 1);
  EXPECT_EQ((*graphs)[2].points.back().limiters,
            std::vector<OccupancyResource>{OccupancyResource::kSharedMemory});
  // Occupancy never rises as a block asks for more shared memory.
  for (std::size_t i = 1; i < (*graphs)[2].points.size(); ++i) {
    EXPECT_LE((*graphs)[2].points[i].active_warps_per_sm,
              (*graphs)[2].points[i - 1].active_warps_per_sm);
  }
}

// Sizes over 48 KB are drawn as if the kernel opted in, and a configuration the driver chose
// for the launch's own size is not applied to other sizes.
TEST(OccupancyGraphs, SharedMemoryGraphAssumesTheOptIn) {
  const ArchitectureLimits arch = ArchOf("9.0");
  OccupancyInput input = IssueExample();
  input.shared_memory_config = 8 * 1024;
  StatusOr<std::vector<OccupancyGraph>> graphs = ComputeOccupancyGraphs(arch, input);
  ASSERT_TRUE(graphs.ok());
  const OccupancyGraph& shared = (*graphs)[2];
  const OccupancyGraphPoint& at_100k = shared.points[100 * 1024 / 128];
  EXPECT_EQ(at_100k.x, 100 * 1024);
  EXPECT_EQ(at_100k.blocks_per_sm, 2);  // 233472 / (102400 + 1024)
}

TEST(OccupancyGraphs, RejectInvalidInput) {
  OccupancyInput input = IssueExample();
  input.threads_per_block = 2048;
  EXPECT_FALSE(ComputeOccupancyGraphs(ArchOf("9.0"), input).ok());
}

}  // namespace
}  // namespace gpuscope::analysis
