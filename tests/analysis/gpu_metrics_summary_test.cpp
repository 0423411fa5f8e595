// `stats --report gpu_metrics_sum` on a report written by the real writer: a busy kernel, an
// idle gap marked by an NVTX range and a DRAM-bound copy kernel, sampled every 100 us. The
// averages and peaks are worked out by hand, time-weighted where a sample straddles a launch.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "analysis/gpu_metrics_summary.h"
#include "analysis/stats_reports.h"
#include "render/stats_table_format.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::analysis {
namespace {

using store::testing::kMs;
using store::testing::kUs;
using store::testing::ReportBuilder;

constexpr auto kSm = static_cast<std::uint8_t>(GpuMetricRole::kSmActive);
constexpr auto kDram = static_cast<std::uint8_t>(GpuMetricRole::kDramRead);

// 0-1 ms busy kernel (SM 100 %), 1-2 ms gap (SM 0), 2-3 ms copy (SM 20 %, DRAM 3 TB/s); one
// sample straddles the busy kernel's end: [0.95, 1.05) ms at SM 50 %.
std::string WriteReport(const store::testing::ScratchDir& dir) {
  const std::string path = dir.File("metrics.sqlite");
  ReportBuilder builder(path);
  builder.GpuMetrics(0, {{"SM Active", "%", kSm}, {"DRAM Read Bandwidth", "byte/second", kDram}});
  builder.Kernel(0, 1 * kMs, {.name = "_Z4busyv"});
  builder.Kernel(2 * kMs, 1 * kMs, {.name = "_Z4copyv"});
  builder.Range(model::NvtxKind::kPushPopRange, "gap", 1 * kMs + 100 * kUs, 800 * kUs);
  for (std::uint64_t t = 0; t < 3 * kMs; t += 100 * kUs) {
    double sm = t < 1 * kMs ? 100.0 : (t < 2 * kMs ? 0.0 : 20.0);
    double dram = t >= 2 * kMs ? 3e12 : 1e9;
    if (t == 900 * kUs) {
      builder.GpuMetricSample(0, t, 50 * kUs, {100.0, 1e9});
      builder.GpuMetricSample(0, t + 50 * kUs, 100 * kUs, {50.0, 1e9});
      builder.GpuMetricSample(0, t + 150 * kUs, 50 * kUs, {0.0, 1e9});
      continue;
    }
    if (t == 1 * kMs) continue;  // covered by the three above
    builder.GpuMetricSample(0, t, 100 * kUs, {sm, dram});
  }
  model::GpuMetricSamplingRecord sampling{0, "GH100", "default", 100'000, 128 << 20, 31, 12, 2,
                                          200'000, ""};
  builder.Write(sampling);
  EXPECT_TRUE(builder.Close().ok());
  return path;
}

const GpuMetricAggregate* Find(const GpuMetricsSummary& summary, GpuMetricScope scope,
                               const std::string& name, const std::string& label) {
  for (const GpuMetricAggregate& row : summary.rows) {
    if (row.scope == scope && row.name == name && row.label == label) return &row;
  }
  return nullptr;
}

TEST(GpuMetricsSummary, AveragesAndPeaksPerRunKernelAndRange) {
  store::testing::ScratchDir dir;
  auto report = store::ReportReader::Open(WriteReport(dir));
  ASSERT_TRUE(report.ok()) << report.status().message();
  StatusOr<GpuMetricsSummary> summary = SummarizeGpuMetrics(**report);
  ASSERT_TRUE(summary.ok()) << summary.status().message();

  const GpuMetricAggregate* busy = Find(*summary, GpuMetricScope::kKernel, "busy()", "SM Active");
  ASSERT_NE(busy, nullptr);
  // 0.95 ms at 100 % and 0.05 ms (half the straddling sample) at 50 %: 97.5 %.
  EXPECT_NEAR(busy->average, 97.5, 1e-9);
  EXPECT_EQ(busy->peak, 100.0);
  EXPECT_EQ(busy->covered_ns, 1 * kMs);
  EXPECT_EQ(busy->samples, 11u);  // 9 whole, the 50 us one, half of the straddling one

  const GpuMetricAggregate* gap = Find(*summary, GpuMetricScope::kNvtx, "gap", "SM Active");
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(gap->average, 0.0);

  const GpuMetricAggregate* copy =
      Find(*summary, GpuMetricScope::kKernel, "copy()", "DRAM Read Bandwidth");
  ASSERT_NE(copy, nullptr);
  EXPECT_NEAR(copy->average, 3e12, 1);
  EXPECT_EQ(copy->role, kDram);

  const GpuMetricAggregate* run = Find(*summary, GpuMetricScope::kRun, "", "SM Active");
  ASSERT_NE(run, nullptr);
  // 0.95 ms at 100, 0.1 ms at 50, 0.95 ms at 0, 1 ms at 20, over 3 ms.
  EXPECT_NEAR(run->average, (0.95 * 100 + 0.1 * 50 + 1.0 * 20) / 3.0, 1e-9);
  EXPECT_EQ(run->covered_ns, 3 * kMs);
}

TEST(GpuMetricsSummary, TableShowsBandwidthInGigabytesAndTheLosses) {
  store::testing::ScratchDir dir;
  auto report = store::ReportReader::Open(WriteReport(dir));
  ASSERT_TRUE(report.ok());
  StatusOr<StatsTable> table = BuildStatsReport("gpu_metrics_sum", {report->get()});
  ASSERT_TRUE(table.ok()) << table.status().message();
  std::ostringstream csv;
  render::WriteStatsTable(*table, render::StatsFormat::kCsv, csv);
  EXPECT_NE(csv.str().find("0,kernel,copy(),DRAM Read Bandwidth,GB/s,10,3000.0,3000.0"),
            std::string::npos)
      << csv.str();
  EXPECT_NE(csv.str().find(",sampling,"), std::string::npos) << csv.str();
  std::ostringstream columns;
  render::WriteStatsTable(*table, render::StatsFormat::kColumn, columns);
  EXPECT_NE(columns.str().find("31 samples kept, 12 dropped; the hardware buffer overflowed 2 "
                               "times (a rate of at most 5,000 samples/s would fit"),
            std::string::npos)
      << columns.str();
}

TEST(GpuMetricsSummary, ReportWithoutGpuMetricsIsEmpty) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("plain.sqlite");
  ReportBuilder builder(path);
  builder.Kernel(0, 1 * kMs);
  ASSERT_TRUE(builder.Close().ok());
  auto report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok());
  StatusOr<GpuMetricsSummary> summary = SummarizeGpuMetrics(**report);
  ASSERT_TRUE(summary.ok());
  EXPECT_TRUE(summary->rows.empty());
  EXPECT_TRUE(GpuMetricSamplingNotes(*summary).empty());
}

}  // namespace
}  // namespace gpuscope::analysis
