#include "analysis/diff/report_diff.h"

#include <gtest/gtest.h>

#include <sstream>

#include "render/diff_format.h"

namespace gpuscope::analysis::diff {
namespace {

using render::WriteDiffCsv;
using render::WriteDiffJson;
using render::WriteDiffText;

constexpr LaunchConfig kConfig{{4, 1, 1}, {128, 1, 1}};

KernelLaunches Group(const std::string& name, std::vector<double> durations,
                     std::map<std::string, std::vector<double>> metrics = {}) {
  KernelLaunches g;
  g.key.name = name;
  g.configs = {kConfig};
  g.function_name = name;
  g.launches = durations.size();
  g.traced_durations_ns = std::move(durations);
  g.metrics = std::move(metrics);
  g.profiled = g.metrics.empty() ? 0 : g.metrics.begin()->second.size();
  return g;
}

ReportKernels Report(std::string path, std::vector<KernelLaunches> kernels) {
  ReportKernels report;
  report.path = std::move(path);
  report.kernels = std::move(kernels);
  return report;
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

// With --match name+config each shape is its own kernel (LoadReportKernels puts the shape in
// the key).
KernelLaunches WithConfigInKey(KernelLaunches g, LaunchConfig config) {
  g.key.config = config;
  g.configs = {config};
  return g;
}

TEST(DiffReports, MatchesByNameAndConfigWhenAskedAndListsTheRest) {
  const LaunchConfig wider{{8, 1, 1}, {128, 1, 1}};
  ReportKernels before = Report("a", {WithConfigInKey(Group("k", {100}), kConfig),
                                      WithConfigInKey(Group("gone", {10}), kConfig)});
  ReportKernels after = Report("b", {WithConfigInKey(Group("k", {50}), wider),
                                     WithConfigInKey(Group("k", {100}), kConfig),
                                     WithConfigInKey(Group("new", {5}), kConfig)});
  before.match = after.match = MatchBy::kNameAndConfig;
  ReportDiff d = DiffReports(before, after);
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_EQ(d.kernels[0].configs_before[0].grid[0], 4);
  EXPECT_FALSE(d.kernels[0].ConfigChanged());
  ASSERT_EQ(d.only_before.size(), 1u);
  EXPECT_EQ(d.only_before[0].function_name, "gone");
  ASSERT_EQ(d.only_after.size(), 2u);
  EXPECT_EQ(d.only_after[0].configs[0].grid[0], 8);  // 50 ns: the bigger one first
  EXPECT_EQ(d.only_after[1].function_name, "new");

  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("matched by name, grid and block"), std::string::npos);
  EXPECT_NE(text.str().find("Kernels only in before:"), std::string::npos);
  EXPECT_NE(text.str().find("Kernels only in after:"), std::string::npos);
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

TEST(DiffReports, ByNameAChangedBlockIsTheSameKernelWithItsConfigChange) {
  KernelLaunches smaller_block = Group("k", {80});
  smaller_block.configs = {LaunchConfig{{4, 1, 1}, {64, 1, 1}}};
  ReportDiff d = DiffReports(Report("a", {Group("k", {100})}), Report("b", {smaller_block}));
  ASSERT_EQ(d.kernels.size(), 1u);
  EXPECT_TRUE(d.only_before.empty());
  EXPECT_TRUE(d.only_after.empty());
  EXPECT_TRUE(d.kernels[0].ConfigChanged());
  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("grid (4, 1, 1)  block (128, 1, 1) -> (64, 1, 1)"), std::string::npos)
      << text.str();
  std::ostringstream json;
  WriteDiffJson(d, json);
  EXPECT_NE(json.str().find("\"config_changed\":true"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"configs_after\":[{\"grid\":[4,1,1],\"block\":[64,1,1]}]"),
            std::string::npos)
      << json.str();
}

// The words after `label` in the table row that starts with it (after the indent).
std::vector<std::string> RowWords(const std::string& text, const std::string& label) {
  std::size_t at = text.find("\n    " + label + " ");
  if (at == std::string::npos) return {};
  at += 5 + label.size();
  std::istringstream line(text.substr(at, text.find('\n', at) - at));
  std::vector<std::string> words;
  for (std::string word; line >> word;) words.push_back(word);
  return words;
}

TEST(DiffReports, ColumnsNeverRunTogetherAndMetricsHaveNcuNames) {
  const std::string conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  const std::string duration = "gpu__time_duration.sum";
  const std::string sm = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
  ReportKernels before = Report(
      "a", {Group("k", {}, {{conflicts, {8380716}}, {duration, {61728}}, {sm, {40}}})});
  ReportKernels after = Report(
      "b", {Group("k", {}, {{conflicts, {10894930.8}}, {duration, {1234567}}, {sm, {80}}})});
  before.units = {{conflicts, "bank_conflict"}, {duration, "nsecond"}, {sm, "%"}};
  ReportDiff d = DiffReports(before, after);
  std::ostringstream out;
  WriteDiffText(d, {}, out);
  const std::string text = out.str();
  // The unit in its own column, each number a word of its own (the issue's
  // "8,380,716 bank_conflict10,894,930.80 bank_conflict").
  // Catalogue metrics by ncu's label, not the CUPTI id.
  EXPECT_EQ(text.find(conflicts), std::string::npos) << text;
  EXPECT_EQ(text.find(duration), std::string::npos) << text;
  std::vector<std::string> words = RowWords(text, "Shared Store Bank Conflicts");
  ASSERT_GE(words.size(), 4u) << text;
  EXPECT_EQ(words[0], "bank_conflict");
  EXPECT_EQ(words[1], "8,380,716");
  EXPECT_EQ(words[2], "10,894,930.80");
  EXPECT_EQ(words[3], "+30.0%");
  // Before and after in one unit, chosen for the larger.
  words = RowWords(text, "Duration");
  ASSERT_GE(words.size(), 4u) << text;
  EXPECT_EQ(words[0], "ms");
  EXPECT_EQ(words[1], "0.06");
  EXPECT_EQ(words[2], "1.23");
  words = RowWords(text, "Compute (SM) Throughput");
  ASSERT_GE(words.size(), 4u) << text;
  EXPECT_EQ(words[0], "%");
  EXPECT_EQ(words[1], "40");
  // Aligned: the spaces between the dashes of the rule are the column gaps, blank in every
  // row of the table.
  std::istringstream lines(text);
  std::vector<std::string> table;
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("    -") || !table.empty()) table.push_back(line);
    if (table.size() > 1 && line.empty()) break;
  }
  ASSERT_GE(table.size(), 6u) << text;  // rule, header, rule, three rows
  const std::string& rule = table[0];
  for (std::size_t i = 1; i + 1 < table.size(); ++i) {
    for (std::size_t p = 4; p < rule.size() && p < table[i].size(); ++p) {
      if (rule[p] == ' ') {
        EXPECT_EQ(table[i][p], ' ') << "column gap at " << p << ":\n" << text;
      }
    }
  }
}

TEST(DiffReports, ALabelTwoMetricsShareAlsoNamesTheirIds) {
  // ncu calls both "TMA" (instructions and cycles of the pipe).
  const std::string inst = "sm__inst_executed_pipe_tma.avg.pct_of_peak_sustained_elapsed";
  const std::string cycles = "sm__pipe_tma_cycles_active.avg.pct_of_peak_sustained_elapsed";
  const std::string dram = "dram__bytes.sum";
  ReportDiff d = DiffReports(
      Report("a", {Group("k", {}, {{inst, {10}}, {cycles, {12}}, {dram, {1e6}}})}),
      Report("b", {Group("k", {}, {{inst, {20}}, {cycles, {24}}, {dram, {2e6}}})}));
  std::ostringstream out;
  WriteDiffText(d, {}, out);
  EXPECT_NE(out.str().find("    TMA (" + inst + ") "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find("    TMA (" + cycles + ") "), std::string::npos) << out.str();
  EXPECT_EQ(out.str().find(dram), std::string::npos) << out.str();  // its label alone
}

TEST(DiffReports, ASlowdownBeyondNoiseIsARegression) {
  ReportDiff slower =
      DiffReports(Report("a", {Group("k", {1000})}), Report("b", {Group("k", {1100})}));
  EXPECT_TRUE(slower.kernels[0].regression);
  EXPECT_EQ(slower.regressions, 1u);
  std::ostringstream text;
  WriteDiffText(slower, {}, text);
  EXPECT_NE(text.str().find("REGRESSION"), std::string::npos);
  EXPECT_NE(text.str().find("Regressions beyond noise: 1 (kernel k)"), std::string::npos)
      << text.str();
  std::ostringstream json;
  WriteDiffJson(slower, json);
  EXPECT_NE(json.str().find("\"regressions\": 1,"), std::string::npos) << json.str();
  EXPECT_NE(json.str().find("\"regression\":true"), std::string::npos);

  // Within noise (1% < 2%), or faster: none.
  for (double after : {1010.0, 500.0}) {
    ReportDiff d =
        DiffReports(Report("a", {Group("k", {1000})}), Report("b", {Group("k", {after})}));
    EXPECT_FALSE(d.kernels[0].regression) << after;
    EXPECT_EQ(d.regressions, 0u);
  }
  // A kernel in one report only is listed, not a regression.
  ReportDiff added = DiffReports(Report("a", {}), Report("b", {Group("new", {1000})}));
  EXPECT_EQ(added.regressions, 0u);
}

TEST(DiffReports, NvtxRangesCompareTheirProjectedGpuTime) {
  ReportKernels before = Report("a", {});
  ReportKernels after = Report("b", {});
  before.nvtx_projected_ns = {{"step", {1000, 1010}}, {"load", {50}}, {"gone", {5}}};
  after.nvtx_projected_ns = {{"step", {1500, 1515}}, {"load", {50}}, {"new", {7}}};
  ReportDiff d = DiffReports(before, after);
  ASSERT_EQ(d.ranges.size(), 2u);
  EXPECT_EQ(d.ranges[0].name, "step");  // the bigger change first
  EXPECT_TRUE(d.ranges[0].regression);
  EXPECT_EQ(d.ranges[0].projected.noise_source, "range of 2+2 instances");
  EXPECT_DOUBLE_EQ(d.ranges[0].time_saved_ns, -1005);
  EXPECT_FALSE(d.ranges[1].regression);
  EXPECT_EQ(d.regressions, 1u);
  ASSERT_EQ(d.ranges_only_before.size(), 1u);
  EXPECT_EQ(d.ranges_only_before[0].name, "gone");
  ASSERT_EQ(d.ranges_only_after.size(), 1u);
  EXPECT_EQ(d.ranges_only_after[0].name, "new");
  std::ostringstream text;
  WriteDiffText(d, {}, text);
  EXPECT_NE(text.str().find("Regressions beyond noise: 1 (NVTX range step)"), std::string::npos)
      << text.str();
  std::vector<std::string> words = RowWords(text.str(), "step");
  ASSERT_GE(words.size(), 7u) << text.str();
  EXPECT_EQ(words[0], "us");
  EXPECT_EQ(words[1], "2");  // instances "2 -> 2"
  EXPECT_EQ(words[6], "+50.0%");
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
