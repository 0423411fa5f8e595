#include "analysis/diff/metric_meaning.h"

#include <gtest/gtest.h>

namespace gpuscope::analysis::diff {
namespace {

TEST(MetricMeaning, Directions) {
  EXPECT_EQ(DirectionOf("gpu__time_duration.sum"), Direction::kLowerIsBetter);
  EXPECT_EQ(DirectionOf("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum"),
            Direction::kLowerIsBetter);
  EXPECT_EQ(DirectionOf("dram__bytes.sum"), Direction::kLowerIsBetter);
  EXPECT_EQ(DirectionOf("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            Direction::kLowerIsBetter);
  EXPECT_EQ(DirectionOf("smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio"),
            Direction::kLowerIsBetter);
  EXPECT_EQ(DirectionOf("lts__t_sector_hit_rate.pct"), Direction::kHigherIsBetter);
  EXPECT_EQ(DirectionOf("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
            Direction::kHigherIsBetter);
  EXPECT_EQ(DirectionOf("sm__inst_executed.avg.per_cycle_active"), Direction::kHigherIsBetter);
  EXPECT_EQ(DirectionOf("smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio"),
            Direction::kHigherIsBetter);
  EXPECT_EQ(DirectionOf("sm__cycles_elapsed.avg.per_second"), Direction::kNeutral);
  EXPECT_EQ(DirectionOf("dram__bytes.sum.peak_sustained"), Direction::kNeutral);
  EXPECT_EQ(DirectionOf("dram__bytes.sum.per_second"), Direction::kNeutral);
  // An operation's rate says what the kernel does, not how well.
  EXPECT_EQ(DirectionOf("smsp__sass_thread_inst_executed_op_dadd_pred_on.sum.per_cycle_elapsed"),
            Direction::kNeutral);
}

TEST(MetricMeaning, NoiseClasses) {
  EXPECT_EQ(NoiseClassOf("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"),
            NoiseClass::kExact);
  EXPECT_EQ(NoiseClassOf("smsp__inst_executed.sum"), NoiseClass::kExact);
  EXPECT_EQ(NoiseClassOf("gpu__time_duration.sum"), NoiseClass::kMeasured);
  EXPECT_EQ(NoiseClassOf("dram__bytes.sum"), NoiseClass::kMeasured);
  EXPECT_EQ(NoiseClassOf("sm__inst_executed.avg.per_cycle_active"), NoiseClass::kMeasured);
  EXPECT_TRUE(IsPercent("lts__t_sector_hit_rate.pct"));
  EXPECT_FALSE(IsPercent("dram__bytes.sum"));
}

}  // namespace
}  // namespace gpuscope::analysis::diff
