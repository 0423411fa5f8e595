#include "launch_comparison.h"

#include <gtest/gtest.h>

namespace gpuscope::ncu_csv {
namespace {

ProfiledLaunch Launch(long id, std::string name, std::map<std::string, std::string> values) {
  ProfiledLaunch launch;
  launch.id = id;
  launch.kernel_name = name + "(float *)";
  launch.function_name = std::move(name);
  launch.grid_size = "(4, 1, 1)";
  launch.block_size = "(256, 1, 1)";
  for (auto& [metric, text] : values) launch.metrics[metric] = MakeMetricValue(text, "");
  return launch;
}

const MetricComparison& Only(const Comparison& comparison) {
  EXPECT_EQ(comparison.metrics.size(), 1u);
  return comparison.metrics.front();
}

Verdict VerdictOf(const std::string& metric, const std::string& reference,
                  const std::string& candidate) {
  Comparison comparison =
      CompareLaunches({Launch(0, "k", {{metric, reference}})},
                      {Launch(0, "k", {{metric, candidate}})}, {metric}, Tolerances{});
  return Only(comparison).verdict;
}

TEST(ClassifyMetric, ByRollupAndSubmetric) {
  EXPECT_EQ(ClassifyMetric("smsp__inst_executed.sum"), MetricKind::kCount);
  EXPECT_EQ(ClassifyMetric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
            MetricKind::kCount);
  EXPECT_EQ(ClassifyMetric("smsp__inst_executed.avg"), MetricKind::kCount);
  EXPECT_EQ(ClassifyMetric("lts__t_sectors_srcunit_tex_op_read.sum"), MetricKind::kCount);
  EXPECT_EQ(ClassifyMetric("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
            MetricKind::kPercent);
  EXPECT_EQ(ClassifyMetric("lts__t_sector_hit_rate.pct"), MetricKind::kPercent);
  EXPECT_EQ(ClassifyMetric("gpu__time_duration.sum"), MetricKind::kDuration);
  EXPECT_EQ(ClassifyMetric("gpc__cycles_elapsed.max"), MetricKind::kDuration);
  EXPECT_EQ(ClassifyMetric("sm__cycles_active.avg"), MetricKind::kDuration);
  EXPECT_EQ(ClassifyMetric("gpc__cycles_elapsed.avg.per_second"), MetricKind::kOther);
  EXPECT_EQ(ClassifyMetric("smsp__average_warp_latency_per_inst_issued.ratio"), MetricKind::kOther);
  EXPECT_EQ(ClassifyMetric("sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained"),
            MetricKind::kOther);
  EXPECT_EQ(ClassifyMetric("sm__inst_executed.avg.per_cycle_active"), MetricKind::kOther);
}

TEST(CompareLaunches, CountsWithinOnePercentOfNcu) {
  EXPECT_EQ(VerdictOf("smsp__inst_executed.sum", "1,000,000", "1009999"), Verdict::kPass);
  EXPECT_EQ(VerdictOf("smsp__inst_executed.sum", "1,000,000", "990000"), Verdict::kPass);
  EXPECT_EQ(VerdictOf("smsp__inst_executed.sum", "1,000,000", "1010001"), Verdict::kFail);
  EXPECT_EQ(VerdictOf("smsp__inst_executed.sum", "0", "0"), Verdict::kPass);
  EXPECT_EQ(VerdictOf("smsp__inst_executed.sum", "0", "1"), Verdict::kFail);
}

TEST(CompareLaunches, PercentagesWithinThreePoints) {
  const char* metric = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
  EXPECT_EQ(VerdictOf(metric, "34.6", "37.5"), Verdict::kPass);
  EXPECT_EQ(VerdictOf(metric, "34.6", "31.7"), Verdict::kPass);
  EXPECT_EQ(VerdictOf(metric, "34.6", "37.7"), Verdict::kFail);
  EXPECT_EQ(VerdictOf(metric, "0.09", "3.0"), Verdict::kPass) << "points, not a ratio";
}

TEST(CompareLaunches, DurationsWithinFivePercent) {
  EXPECT_EQ(VerdictOf("gpu__time_duration.sum", "61,728", "64800"), Verdict::kPass);
  EXPECT_EQ(VerdictOf("gpu__time_duration.sum", "61,728", "64900"), Verdict::kFail);
  EXPECT_EQ(VerdictOf("sm__cycles_active.avg", "10,000", "10400"), Verdict::kPass);
}

TEST(CompareLaunches, OtherKindsWithinFivePercentByDefault) {
  EXPECT_EQ(VerdictOf("smsp__average_warp_latency_per_inst_issued.ratio", "10", "10.49"),
            Verdict::kPass);
  EXPECT_EQ(VerdictOf("smsp__average_warp_latency_per_inst_issued.ratio", "10", "10.51"),
            Verdict::kFail);
}

TEST(CompareLaunches, APrefixToleranceOverridesTheKind) {
  Tolerances tolerances;
  tolerances.by_prefix.push_back({"dram__", Tolerance{0.01, 4096}});
  auto launches = [](const char* value) {
    return std::vector<ProfiledLaunch>{Launch(0, "k_tiny", {{"dram__bytes_read.sum", value}})};
  };
  Comparison near = CompareLaunches(launches("256"), launches("2,304"), {}, tolerances);
  EXPECT_EQ(Only(near).verdict, Verdict::kPass);
  EXPECT_EQ(Only(near).allowed, 4096);
  Comparison far = CompareLaunches(launches("256"), launches("8,192"), {}, tolerances);
  EXPECT_EQ(Only(far).verdict, Verdict::kFail);
}

TEST(CompareLaunches, NoReferenceValueIsSkippedNoCandidateValueIsMissing) {
  EXPECT_EQ(VerdictOf("dram__bytes_read.sum", "n/a", "12"), Verdict::kSkipped);
  EXPECT_EQ(VerdictOf("dram__bytes_read.sum", "12", "n/a"), Verdict::kMissing);
  Comparison absent = CompareLaunches({Launch(0, "k", {{"a__b.sum", "1"}})}, {Launch(0, "k", {})},
                                      {"a__b.sum"}, Tolerances{});
  EXPECT_EQ(Only(absent).verdict, Verdict::kMissing);
  EXPECT_FALSE(absent.ok());
}

TEST(CompareLaunches, MatchesByKernelNameAndLaunchOrderNotById) {
  // ncu profiled k_a, k_b, k_a; the candidate numbered them differently.
  std::vector<ProfiledLaunch> ncu = {Launch(0, "k_a", {{"x__y.sum", "1"}}),
                                     Launch(1, "k_b", {{"x__y.sum", "2"}}),
                                     Launch(2, "k_a", {{"x__y.sum", "3"}})};
  std::vector<ProfiledLaunch> gpuscope = {Launch(7, "k_b", {{"x__y.sum", "2"}}),
                                          Launch(8, "k_a", {{"x__y.sum", "1"}}),
                                          Launch(9, "k_a", {{"x__y.sum", "3"}})};
  Comparison comparison = CompareLaunches(ncu, gpuscope, {}, Tolerances{});
  EXPECT_TRUE(comparison.ok()) << FormatComparison(comparison);
  EXPECT_EQ(comparison.matched_launches, 3);
  ASSERT_EQ(comparison.metrics.size(), 3u);
  EXPECT_EQ(comparison.metrics[2].kernel, "k_a");
  EXPECT_EQ(comparison.metrics[2].ordinal, 1);
  EXPECT_EQ(comparison.metrics[2].candidate, 3.0);
}

TEST(CompareLaunches, LaunchesOnOneSideOnlyAndDifferentGeometryAreProblems) {
  ProfiledLaunch other_grid = Launch(0, "k_a", {{"x__y.sum", "1"}});
  other_grid.grid_size = "(8, 1, 1)";
  Comparison comparison =
      CompareLaunches({Launch(0, "k_a", {{"x__y.sum", "1"}}), Launch(1, "k_b", {})},
                      {other_grid, Launch(1, "k_c", {})}, {}, Tolerances{});
  EXPECT_FALSE(comparison.ok());
  ASSERT_EQ(comparison.launch_problems.size(), 3u);
  EXPECT_EQ(comparison.launch_problems[0],
            "k_a#0: launch differs: reference (4, 1, 1)x(256, 1, 1), candidate (8, 1, 1)x(256, "
            "1, 1)");
  EXPECT_EQ(comparison.launch_problems[1], "k_b#0: profiled only by the reference");
  EXPECT_EQ(comparison.launch_problems[2], "k_c#0: profiled only by the candidate");
}

TEST(CompareLaunches, NothingComparedIsNotOk) {
  Comparison comparison = CompareLaunches({}, {}, {}, Tolerances{});
  EXPECT_FALSE(comparison.ok());
}

TEST(FormatComparison, OneLinePerValueWithRatioAndASummary) {
  Comparison comparison = CompareLaunches(
      {Launch(0, "k_saxpy",
              {{"dram__bytes_read.sum", "536,870,912"}, {"gpu__time_duration.sum", "61,728"}})},
      {Launch(0, "k_saxpy",
              {{"dram__bytes_read.sum", "536870912"}, {"gpu__time_duration.sum", "70000"}})},
      {}, Tolerances{});
  std::string text = FormatComparison(comparison);
  EXPECT_NE(text.find("PASS    k_saxpy#0"), std::string::npos) << text;
  EXPECT_NE(text.find("ncu=536870912"), std::string::npos) << text;
  EXPECT_NE(text.find("ratio=1.0000"), std::string::npos) << text;
  EXPECT_NE(text.find("FAIL    k_saxpy#0"), std::string::npos) << text;
  EXPECT_NE(text.find("gpuscope=70000"), std::string::npos) << text;
  EXPECT_NE(text.find("ratio=1.1340"), std::string::npos) << text;
  EXPECT_NE(text.find("(5%)"), std::string::npos) << text;
  EXPECT_NE(text.find("summary: MISMATCH: 2 values of 1 matched launches: 1 pass, 1 fail"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpuscope::ncu_csv
