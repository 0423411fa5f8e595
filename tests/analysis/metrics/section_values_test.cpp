#include "analysis/metrics/section_values.h"

#include <gtest/gtest.h>

#include "../../support/test_profiles.h"

namespace gpuscope::analysis::metrics {
namespace {

using testing::Saxpy;
using testing::SharedMemoryConflicts;

const MetricRow& Row(const std::vector<MetricRow>& rows, std::string_view label) {
  for (const MetricRow& row : rows) {
    if (row.label == label) return row;
  }
  static const MetricRow missing{};
  ADD_FAILURE() << "no row " << label;
  return missing;
}

std::vector<MetricRow> Evaluate(const KernelProfile& k, std::string_view section) {
  return EvaluateSections(k, {FindSection(section).value()});
}

TEST(SectionValues, SaxpyLaunchStatisticsOnH200) {
  const auto rows = Evaluate(Saxpy(), "LaunchStats");
  EXPECT_EQ(*Row(rows, "Grid Size").value, 262144);
  EXPECT_EQ(*Row(rows, "Block Size").value, 256);
  EXPECT_EQ(*Row(rows, "Threads").value, 67108864);
  EXPECT_EQ(*Row(rows, "Registers Per Thread").value, 16);
  EXPECT_EQ(*Row(rows, "# SMs").value, 132);
  EXPECT_EQ(*Row(rows, "Driver Shared Memory Per Block").value, 1024);
  EXPECT_EQ(Row(rows, "Driver Shared Memory Per Block").scaled.text_unit, "Kbyte/block");
  EXPECT_EQ(*Row(rows, "Shared Memory Configuration Size").value, 32768);
  EXPECT_EQ(*Row(rows, "Cluster Size").value, 0);
  // 8 blocks of 8 warps fill an SM's 64 warps: 262144 / (8 x 132) waves.
  EXPECT_NEAR(*Row(rows, "Waves Per SM").value, 262144.0 / (8 * 132), 1e-9);
  EXPECT_EQ(FormatMetricNumber(Row(rows, "Waves Per SM").scaled.value, true), "248.24");
  EXPECT_EQ(Row(rows, "Waves Per SM").metric_id, "");
}

TEST(SectionValues, SaxpyOccupancy) {
  const auto rows = Evaluate(Saxpy(), "Occupancy");
  EXPECT_EQ(*Row(rows, "Theoretical Occupancy").value, 100);
  EXPECT_EQ(*Row(rows, "Theoretical Active Warps per SM").value, 64);
  EXPECT_EQ(*Row(rows, "Block Limit Warps").value, 8);
  EXPECT_EQ(*Row(rows, "Block Limit SM").value, 32);
  EXPECT_EQ(*Row(rows, "Block Limit Registers").value, 16);
  EXPECT_EQ(*Row(rows, "Achieved Occupancy").value, 74.3);
  EXPECT_EQ(Row(rows, "Achieved Occupancy").metric_id,
            "sm__warps_active.avg.pct_of_peak_sustained_active");
  EXPECT_FALSE(Row(rows, "Achieved Active Warps Per SM").value.has_value());  // not recorded
}

TEST(SectionValues, SharedMemoryKernelIsLimitedByItsCarveout) {
  // 16896 + 1024 bytes + 1 KB reserve = 18944 per block; the 164 KB carveout it ran with
  // holds 8 of them, as do the registers (32/thread) and warps (8/block).
  const auto rows = Evaluate(SharedMemoryConflicts(), "Occupancy");
  EXPECT_EQ(*Row(rows, "Block Limit Shared Mem").value, 8);
  EXPECT_EQ(*Row(rows, "Block Limit Registers").value, 8);
  EXPECT_EQ(*Row(rows, "Block Limit Warps").value, 8);
  EXPECT_EQ(*Row(rows, "Theoretical Occupancy").value, 100);
}

TEST(SectionValues, FormulasOverMetrics) {
  const auto rows = Evaluate(SharedMemoryConflicts(), "MemoryWorkloadAnalysis");
  EXPECT_NEAR(*Row(rows, "Shared Bank Conflicts Of Wavefronts").value, 100 * 1.341e8 / 1.384e8,
              1e-9);
  EXPECT_NEAR(*Row(rows, "Shared Load Wavefronts Per Request").value, 1.384e8 / 4.33e6, 1e-9);
  EXPECT_EQ(Row(rows, "Shared Load Wavefronts Per Request").metric_id, "");
  // An input missing makes the formula n/a rather than a wrong number.
  EXPECT_FALSE(Row(rows, "Global Load Sectors Per Request").value.has_value());
}

TEST(SectionValues, SchedulerNoEligibleIsTheComplement) {
  KernelProfile k = Saxpy();
  k.metrics["smsp__issue_active.avg.pct_of_peak_sustained_active"] = 16.25;
  const auto rows = Evaluate(k, "SchedulerStats");
  EXPECT_EQ(*Row(rows, "No Eligible").value, 83.75);
  EXPECT_EQ(*Row(rows, "One or More Eligible").value, 16.25);
}

TEST(SectionValues, RooflineFlopsAndPeaks) {
  KernelProfile k = Saxpy();
  k.metrics["sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"] = 16896;
  k.metrics["sm__cycles_elapsed.avg.per_second"] = 1.98e9;
  k.metrics["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"] = 0;
  k.metrics["smsp__sass_thread_inst_executed_op_fmul_pred_on.sum"] = 0;
  k.metrics["dram__bytes.sum.peak_sustained"] = 1504;
  const auto rows = Evaluate(k, "SpeedOfLight_RooflineChart");
  EXPECT_EQ(*Row(rows, "FP32 Operations").value, 2.0 * 16777216);
  EXPECT_NEAR(*Row(rows, "FP32 Peak Performance").value, 66.9e12, 0.01e12);
  EXPECT_EQ(Row(rows, "FP32 Peak Performance").scaled.text_unit, "Tflop/s");
  EXPECT_NEAR(*Row(rows, "DRAM Peak Bandwidth").value, 4.81e12, 0.01e12);
  EXPECT_EQ(*Row(rows, "DRAM Bytes").value, 134230000);
  // The GMMA count exists on CC 9.0 only: absent, its optional row is left out.
  for (const MetricRow& row : rows) EXPECT_NE(row.label, "Tensor GMMA Instructions");
}

TEST(SectionValues, UntracedLaunchHasNoLaunchValues) {
  KernelProfile k = Saxpy();
  k.grid = {0, 0, 0};
  k.block = {0, 0, 0};
  const auto rows = Evaluate(k, "LaunchStats");
  EXPECT_FALSE(Row(rows, "Grid Size").value.has_value());
  EXPECT_FALSE(Row(rows, "Waves Per SM").value.has_value());
  EXPECT_EQ(*Row(rows, "# SMs").value, 132);
  EXPECT_FALSE(TheoreticalOccupancy(k).ok());
}

TEST(SectionValues, UnknownComputeCapabilityGivesNoOccupancy) {
  KernelProfile k = Saxpy();
  k.device.compute_major = 3;
  k.device.compute_minor = 5;
  const auto occupancy = TheoreticalOccupancy(k);
  ASSERT_FALSE(occupancy.ok());
  EXPECT_FALSE(occupancy.status().message().empty());
  const auto rows = Evaluate(k, "Occupancy");
  EXPECT_FALSE(Row(rows, "Theoretical Occupancy").value.has_value());
  EXPECT_EQ(*Row(rows, "Achieved Occupancy").value, 74.3);
}

TEST(SectionValues, FormatDim3) { EXPECT_EQ(FormatDim3({64, 64, 1024}), "(64, 64, 1024)"); }

}  // namespace
}  // namespace gpuscope::analysis::metrics
