#include "analysis/diff/report_diff.h"

#include <gtest/gtest.h>

#include <sstream>

#include "render/diff_format.h"

namespace gpuscope::analysis::diff {
namespace {

using render::WriteDiffCsv;
using render::WriteDiffText;

KernelLaunches Group(const std::string& name, std::vector<double> durations,
                     std::map<std::string, std::vector<double>> metrics = {}) {
  KernelLaunches g;
  g.key = {name, {4, 1, 1}, {128, 1, 1}};
  g.function_name = name;
  g.launches = durations.size();
  g.traced_durations_ns = std::move(durations);
  g.metrics = std::move(metrics);
  g.profiled = g.metrics.empty() ? 0 : g.metrics.begin()->second.size();
  return g;
}

ReportKernels Report(std::string path, std::vector<KernelLaunches> kernels) {
  return {std::move(path), std::move(kernels), {}};
}

TEST(Summarize, MeanAndRelativeRange) {
  ValueSummary s = Summarize({90, 100, 110});
  EXPECT_EQ(s.count, 3u);
  EXPECT_DOUBLE_EQ(s.mean, 100);
  EXPECT_DOUBLE_EQ(*s.relative_range, 0.2);
  EXPECT_FALSE(Summarize({5}).relative_range);
}

TEST(DiffReports, OneLaunchEachUsesTheDefaultNoise) {
  ReportDiff d = DiffReports(Report("a", {Group("k", {1000})}), Report("b", {Group("k", {1015})}));
  ASSERT_EQ(d.kernels.size(), 1u);
  const MetricDelta& dur = *d.kernels[0].duration;
  EXPECT_DOUBLE_EQ(dur.delta, 15);
  EXPECT_FALSE(dur.beyond_noise);  // 1.5% < 2%
  EXPECT_EQ(dur.change, Change::kWorse);
  EXPECT_EQ(dur.noise_source, "default 2%");
  EXPECT_DOUBLE_EQ(*d.kernels[0].time_saved_ns, -15);

  ReportDiff faster =
      DiffReports(Report("a", {Group("k", {1000})}), Report("b", {Group("k", {900})}));
  EXPECT_TRUE(faster.kernels[0].duration->beyond_noise);
  EXPECT_EQ(faster.kernels[0].duration->change, Change::kBetter);
}

TEST(DiffReports, SpreadOfRepeatedLaunchesSetsTheNoise) {
  // Before: range 10% of the mean; a 15% change is within twice that.
  ReportDiff noisy =
      DiffReports(Report("a", {Group("k", {95, 105})}), Report("b", {Group("k", {85, 85})}));
  EXPECT_FALSE(noisy.kernels[0].duration->beyond_noise);
  EXPECT_NEAR(noisy.kernels[0].duration->noise, 0.2, 1e-12);
  // Steady launches: the floor (0.5%) applies, so a 1% change counts.
  ReportDiff steady =
      DiffReports(Report("a", {Group("k", {1000, 1000})}), Report("b", {Group("k", {990, 990})}));
  EXPECT_TRUE(steady.kernels[0].duration->beyond_noise);
  EXPECT_DOUBLE_EQ(steady.kernels[0].duration->noise, kMeasuredNoiseFloor);
}

TEST(DiffReports, ExactCountsChangeBeyondNoiseAtAnyDifference) {
  const std::string dadd = "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum";
  const std::string ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
  ReportDiff d = DiffReports(Report("a", {Group("k", {1000}, {{dadd, {1e6}}, {ffma, {100}}})}),
                             Report("b", {Group("k", {700}, {{dadd, {0}}, {ffma, {101}}})}));
  const KernelDiff& k = d.kernels[0];
  ASSERT_EQ(k.metrics.size(), 2u);
  // Biggest change first: -100% before +1%.
  EXPECT_EQ(k.metrics[0].name, dadd);
  EXPECT_EQ(k.metrics[0].change, Change::kBetter);
  EXPECT_TRUE(k.metrics[0].beyond_noise);
  EXPECT_DOUBLE_EQ(*k.metrics[0].relative, -1.0);
  EXPECT_EQ(k.metrics[1].name, ffma);
  EXPECT_TRUE(k.metrics[1].beyond_noise);
  EXPECT_EQ(k.metrics[1].change, Change::kWorse);
}

TEST(DiffReports, PercentagesNeedHalfAPoint) {
  const std::string sm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
  ReportDiff d = DiffReports(Report("a", {Group("k", {1}, {{sm, {0.2}}})}),
                             Report("b", {Group("k", {1}, {{sm, {0.3}}})}));
  EXPECT_FALSE(d.kernels[0].metrics[0].beyond_noise);
  EXPECT_EQ(d.kernels[0].metrics[0].change, Change::kBetter);
}

TEST(DiffReports, MatchesByNameAndLaunchShapeAndListsTheRest) {
  KernelLaunches other_grid = Group("k", {50});
  other_grid.key.grid = {8, 1, 1};
  ReportDiff d = DiffReports(Report("a", {Group("k", {100}), Group("gone", {10})}),
                             Report("b", {other_grid, Group("k", {100}), Group("new", {5})}));
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(d.kernels[0].key.grid[0], 4);
  ASSERT_EQ(d.only_before.size(), 1u);
  EXPECT_EQ(d.only_before[0].function_name, "gone");
  ASSERT_EQ(d.only_after.size(), 2u);
  EXPECT_EQ(d.only_after[0].key.grid[0], 8);  // 50 ns: the bigger one first
  EXPECT_EQ(d.only_after[1].function_name, "new");

  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("Only in before:"), std::string::npos);
  EXPECT_NE(text.str().find("Only in after:"), std::string::npos);
  std::ostringstream csv;
  WriteDiffCsv(d, csv);
  EXPECT_NE(csv.str().find(",only in before,1,0,"), std::string::npos);
  EXPECT_NE(csv.str().find(",only in after,0,1,"), std::string::npos);
}

TEST(DiffReports, KernelsWithTheBiggestTimeChangeComeFirst) {
  ReportDiff d = DiffReports(Report("a", {Group("a_small", {100}), Group("b_big", {1000})}),
                             Report("b", {Group("a_small", {90}), Group("b_big", {2000})}));
  ASSERT_EQ(d.kernels.size(), 2u);
  EXPECT_EQ(d.kernels[0].function_name, "b_big");
  EXPECT_DOUBLE_EQ(*d.kernels[0].time_saved_ns, -1000);
}

// Kernel and metric names come from the reports: control characters print as \xHH.
TEST(DiffReports, ControlCharactersInNamesPrintEscaped) {
  ReportDiff d = DiffReports(
      Report("a", {Group("k\x1b]0;pwn\x07\r\nx", {100}, {{"k\x1b]0;pwn\x07\r\nx", {1}}}),
                   Group("gone", {1})}),
      Report("b", {Group("k\x1b]0;pwn\x07\r\nx", {200}, {{"k\x1b]0;pwn\x07\r\nx", {2}}}),
                   Group("k\x1b]0;pwn\x07\r\nx" + std::string("2"), {1})}));
  std::ostringstream text;
  WriteDiffText(d, {true}, text);
  const std::string out = text.str();
  EXPECT_EQ(out.find_first_of("\x1b\x07\r"), std::string::npos) << out;
  EXPECT_NE(out.find(std::string("  ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "  grid"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find(std::string("    ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + " "), std::string::npos)
      << out;
  EXPECT_NE(out.find(std::string("    ") + "k\\x1b]0;pwn\\x07\\x0d\\x0ax" + "2  grid"),
            std::string::npos)
      << out;
}

}  // namespace
}  // namespace gpuscope::analysis::diff
