#include "render/kernel_summary.h"

#include <gtest/gtest.h>

#include "../support/test_profiles.h"

namespace gpuscope::analysis::metrics {
namespace {

using render::FormatKernelSummary;

using testing::Saxpy;
using testing::SharedMemoryConflicts;

KernelProfile SecondSaxpy() {
  KernelProfile k = Saxpy();
  k.invocation = 1;
  k.profile_index = 1;
  k.metrics["gpu__time_duration.sum"] = 1200000;
  k.metrics["sm__warps_active.avg.pct_of_peak_sustained_active"] = 70.1;
  return k;
}

TEST(KernelSummary, MinMaxAverageGolden) {
  // The leading newline of the raw string is not part of the output.
  const std::string expected = std::string(R"c(
  saxpy(int, float, const float *, float *) (262144, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0, Invocations 2
    Section: Occupancy
    ------------------------------- ----------- ------- ------- -------
    Metric Name                     Metric Unit Minimum Maximum Average
    ------------------------------- ----------- ------- ------- -------
    Block Limit Barriers                  block      64      64      64
    Block Limit SM                        block      32      32      32
    Block Limit Registers                 block      16      16      16
    Block Limit Shared Mem                block      32      32      32
    Block Limit Warps                     block       8       8       8
    Theoretical Active Warps per SM        warp      64      64      64
    Theoretical Occupancy                     %     100     100     100
    Achieved Occupancy                        %   70.10   74.30   72.20
    Achieved Active Warps Per SM           warp     n/a     n/a     n/a

)c")
                                   .substr(1);
  EXPECT_EQ(FormatKernelSummary({Saxpy(), SecondSaxpy()}, {FindSection("Occupancy").value()}),
            expected);
}

TEST(KernelSummary, AllThreeColumnsShareTheAveragesUnit) {
  const std::string text =
      FormatKernelSummary({Saxpy(), SecondSaxpy()}, {FindSection("SpeedOfLight").value()});
  // 61.728 us and 1,200 us average to 630.864 us: every column in us.
  EXPECT_NE(text.find("    Duration                         us   61.73   1,200  630.86\n"),
            std::string::npos)
      << text;
}

TEST(KernelSummary, GroupsByNameGridAndBlockInFirstSeenOrder) {
  KernelProfile other_grid = Saxpy();
  other_grid.grid = {2048, 1, 1};
  const std::string text =
      FormatKernelSummary({SharedMemoryConflicts(), Saxpy(), other_grid, SecondSaxpy()},
                          {FindSection("Occupancy").value()});
  const auto smem = text.find("  smem_conflict(float *) (1024, 1, 1)x(256, 1, 1)");
  const auto saxpy = text.find(
      "(262144, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0, Invocations 2\n");
  const auto small =
      text.find("(2048, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0, Invocations 1\n");
  ASSERT_NE(smem, std::string::npos) << text;
  ASSERT_NE(saxpy, std::string::npos) << text;
  ASSERT_NE(small, std::string::npos) << text;
  EXPECT_LT(smem, saxpy);
  EXPECT_LT(saxpy, small);
}

TEST(KernelSummary, UnmeasuredInvocationsAreNamedAndLeftOut) {
  KernelProfile failed = SecondSaxpy();
  failed.measured = false;
  failed.metrics.clear();
  failed.failure = "counters unavailable";
  const std::string text =
      FormatKernelSummary({Saxpy(), failed}, {FindSection("Occupancy").value()});
  EXPECT_NE(
      text.find(", Invocations 2\n    Not measured: counters unavailable (1 of 2 invocations)\n"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("    Achieved Occupancy                        %   74.30   74.30   74.30\n"),
            std::string::npos)
      << text;

  const std::string none = FormatKernelSummary({failed}, {FindSection("Occupancy").value()});
  EXPECT_EQ(none.find("Section:"), std::string::npos) << none;
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
