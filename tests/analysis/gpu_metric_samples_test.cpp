// GPU metric sample values that cannot be true (analysis/gpu_metric_samples.h) are left out of
// what every reader sees, counted by why, while NaN (the sampler could not evaluate the metric)
// stays legitimate and uncounted. The report is written by the real writer.
#include "analysis/gpu_metric_samples.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "analysis/gpu_metrics_summary.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis {
namespace {

using store::testing::kUs;

constexpr double kInfiniteValue = std::numeric_limits<double>::infinity();
constexpr double kNotEvaluated = std::numeric_limits<double>::quiet_NaN();

// Metrics: SM Active (%), DRAM read (byte/second), instructions (inst). Three good samples and
// two damaged ones: 1e300 %, an infinite bandwidth, -5 instructions, 2^60 instructions.
std::string WriteDamagedSamples(const store::testing::ScratchDir& dir) {
  const std::string path = dir.File("samples.sqlite");
  store::testing::ReportBuilder builder(path);
  builder.GpuMetrics(0, {{"SM Active", "%"}, {"DRAM Read", "byte/second"}, {"Inst", "inst"}});
  builder.GpuMetricSample(0, 0, 100 * kUs, {40.0, 1e9, 1000.0});
  builder.GpuMetricSample(0, 100 * kUs, 100 * kUs, {1e300, kInfiniteValue, -5.0});
  builder.GpuMetricSample(0, 200 * kUs, 100 * kUs, {60.0, kNotEvaluated, 0x1p60});
  builder.GpuMetricSample(0, 300 * kUs, 100 * kUs, {50.0, 2e9, 3000.0});
  EXPECT_TRUE(builder.Close().ok());
  return path;
}

TEST(GpuMetricSamples, ImpossibleValuesAreLeftOutAndCountedNaNStays) {
  store::testing::ScratchDir dir;
  auto report = store::ReportReader::Open(WriteDamagedSamples(dir));
  ASSERT_TRUE(report.ok());
  auto metrics = store::ReadGpuMetrics(**report);
  ASSERT_TRUE(metrics.ok());
  std::vector<std::vector<double>> seen;
  ImpossibleValueCounts impossible;
  ASSERT_TRUE(ForEachPossibleGpuMetricSample(
                  **report, *metrics,
                  [&](const store::StoredGpuMetricSample& sample) {
                    seen.push_back(sample.values);
                    return true;
                  },
                  impossible)
                  .ok());
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0], (std::vector<double>{40.0, 1e9, 1000.0}));
  for (double value : seen[1]) EXPECT_TRUE(std::isnan(value)) << value;
  EXPECT_EQ(seen[2][0], 60.0);
  EXPECT_TRUE(std::isnan(seen[2][1]));  // the sampler's own NaN, not counted
  EXPECT_TRUE(std::isnan(seen[2][2]));
  EXPECT_EQ(seen[3], (std::vector<double>{50.0, 2e9, 3000.0}));
  EXPECT_EQ(impossible.total(), 4u);
  EXPECT_EQ(impossible.count(ImpossibleValue::kPercentOutOfRange), 1u);
  EXPECT_EQ(impossible.count(ImpossibleValue::kNotFinite), 1u);
  EXPECT_EQ(impossible.count(ImpossibleValue::kNegative), 1u);
  EXPECT_EQ(impossible.count(ImpossibleValue::kCountTooLarge), 1u);
}

TEST(GpuMetricSamples, TheSummaryKeepsTheGoodValuesAndSaysHowManyItLeftOutOnce) {
  store::testing::ScratchDir dir;
  auto report = store::ReportReader::Open(WriteDamagedSamples(dir));
  ASSERT_TRUE(report.ok());
  auto summary = SummarizeGpuMetrics(**report);
  ASSERT_TRUE(summary.ok());
  for (const GpuMetricAggregate& row : summary->rows) {
    if (row.scope != GpuMetricScope::kRun) continue;
    if (row.label == "SM Active") {
      EXPECT_EQ(row.samples, 3u);
      EXPECT_EQ(row.peak, 60.0);
    } else if (row.label == "DRAM Read") {
      EXPECT_EQ(row.samples, 2u);
      EXPECT_EQ(row.peak, 2e9);
    } else {
      EXPECT_EQ(row.samples, 2u);
      EXPECT_EQ(row.peak, 3000.0);
    }
  }
  const std::string warning =
      "4 GPU metric sample values cannot be true (1 percentage outside -1% to 1000%, 1 negative "
      "count, duration or rate, 1 count or duration above 2^53, 1 value that is not a finite "
      "number): left out";
  std::size_t said = 0;
  for (const std::string& note : GpuMetricSamplingNotes(*summary)) said += note == warning;
  EXPECT_EQ(said, 1u);
}

}  // namespace
}  // namespace gpuscope::analysis
