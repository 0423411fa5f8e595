// GPU metrics (`run --gpu-metrics`) through the production writer and back through the typed
// readers: metrics, samples (values packed as doubles), the sampling state (the latest wins),
// damaged sample rows left out and counted, and reports without the tables.
#include "store/gpu_metric_tables.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

using testing::kUs;
using testing::ReportBuilder;

std::vector<StoredGpuMetricSample> AllSamples(const ReportReader& report, std::uint64_t* damaged) {
  std::vector<StoredGpuMetricSample> samples;
  Status read = ForEachGpuMetricSample(
      report,
      [&](const StoredGpuMetricSample& sample) {
        samples.push_back(sample);
        return true;
      },
      damaged);
  EXPECT_TRUE(read.ok()) << read.message();
  return samples;
}

void WriteTwoDevices(const std::string& path) {
  ReportBuilder builder(path);
  builder.GpuMetrics(0, {{"SM Active", "%", 1}, {"DRAM Read Bandwidth", "byte/second", 5}});
  builder.GpuMetrics(1, {{"SM Active", "%", 1}});
  builder.GpuMetricSample(0, 100 * kUs, 100 * kUs, {99.5, 2.5e12});
  builder.GpuMetricSample(1, 100 * kUs, 100 * kUs, {12.0});
  builder.GpuMetricSample(0, 200 * kUs, 100 * kUs,
                          {std::numeric_limits<double>::quiet_NaN(), 1.0});
  model::GpuMetricSamplingRecord first{0, "GH100", "default", 100'000, 128 << 20, 1, 0, 0, 0, ""};
  builder.Write(first);
  model::GpuMetricSamplingRecord latest{0,  "GH100", "default", 100'000, 128 << 20,
                                        2,  7,       1,         250'000, ""};
  builder.Write(latest);
  model::GpuMetricSamplingRecord refused{
      1, "GH100", "default", 100'000, 0, 0, 0, 0, 0,
      "cannot read the GPU's performance counters (cuptiPmSamplingEnable: "
      "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)"};
  builder.Write(refused);
  ASSERT_TRUE(builder.Close().ok());
}

TEST(GpuMetricTables, RoundTrip) {
  testing::ScratchDir dir;
  const std::string path = dir.File("r.sqlite");
  WriteTwoDevices(path);
  std::unique_ptr<ReportReader> report = test::OpenReport(path);
  ASSERT_NE(report, nullptr);
  ASSERT_TRUE(HasGpuMetricTables(*report));

  StatusOr<std::vector<StoredGpuMetric>> metrics = ReadGpuMetrics(*report);
  ASSERT_TRUE(metrics.ok());
  ASSERT_EQ(metrics->size(), 3u);
  EXPECT_EQ((*metrics)[0].device_id, 0u);
  EXPECT_EQ((*metrics)[0].index, 0u);
  EXPECT_EQ((*metrics)[0].label, "SM Active");
  EXPECT_EQ((*metrics)[1].name, "metric1");
  EXPECT_EQ((*metrics)[1].unit, "byte/second");
  EXPECT_EQ((*metrics)[1].role, 5);
  EXPECT_EQ((*metrics)[2].device_id, 1u);

  std::uint64_t damaged = 0;
  std::vector<StoredGpuMetricSample> samples = AllSamples(*report, &damaged);
  EXPECT_EQ(damaged, 0u);
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].device_id, 0u);
  EXPECT_EQ(samples[0].start, testing::kTraceOrigin + 100 * kUs);
  EXPECT_EQ(samples[0].end, testing::kTraceOrigin + 200 * kUs);
  EXPECT_EQ(samples[0].values, (std::vector<double>{99.5, 2.5e12}));
  EXPECT_EQ(samples[1].values, (std::vector<double>{12.0}));
  EXPECT_TRUE(std::isnan(samples[2].values[0]));  // CUPTI could not evaluate it: kept as NaN
  EXPECT_EQ(samples[2].values[1], 1.0);

  StatusOr<std::vector<StoredGpuMetricSampling>> sampling = ReadGpuMetricSampling(*report);
  ASSERT_TRUE(sampling.ok());
  ASSERT_EQ(sampling->size(), 2u);
  EXPECT_EQ((*sampling)[0].samples, 2u);  // the latest record of the device wins
  EXPECT_EQ((*sampling)[0].dropped_samples, 7u);
  EXPECT_EQ((*sampling)[0].overflows, 1u);
  EXPECT_EQ((*sampling)[0].fitting_interval_ns, 250'000u);
  EXPECT_EQ((*sampling)[0].hardware_buffer_bytes, 128u << 20);
  EXPECT_EQ((*sampling)[0].chip, "GH100");
  EXPECT_NE((*sampling)[1].status.find("INSUFFICIENT_PRIVILEGES"), std::string::npos);
}

void Execute(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST(GpuMetricTables, DamagedSamplesAreLeftOutAndCounted) {
  testing::ScratchDir dir;
  const std::string path = dir.File("r.sqlite");
  WriteTwoDevices(path);
  // A blob of the wrong size, an end before its start, a device without metrics.
  Execute(path,
          "UPDATE gpu_metric_samples SET metric_values = x'0102' WHERE id = 1;"
          "UPDATE gpu_metric_samples SET \"end\" = start - 1 WHERE id = 2;"
          "INSERT INTO gpu_metric_samples(device_id, start, \"end\", metric_values) "
          "VALUES (9, 1, 2, x'0000000000000000');");
  std::unique_ptr<ReportReader> report = test::OpenReport(path);
  ASSERT_NE(report, nullptr);
  std::uint64_t damaged = 0;
  std::vector<StoredGpuMetricSample> samples = AllSamples(*report, &damaged);
  EXPECT_EQ(damaged, 3u);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].values[1], 1.0);
}

TEST(GpuMetricTables, ReportsWithoutTheTablesHaveNoGpuMetrics) {
  testing::ScratchDir dir;
  const std::string path = dir.File("r.sqlite");
  WriteTwoDevices(path);
  Execute(path, "DROP TABLE gpu_metric_samples; DROP TABLE gpu_metrics; DROP TABLE gpu_metric_sampling;");
  std::unique_ptr<ReportReader> report = test::OpenReport(path);
  ASSERT_NE(report, nullptr);
  EXPECT_FALSE(HasGpuMetricTables(*report));
  EXPECT_TRUE(ReadGpuMetrics(*report)->empty());
  EXPECT_TRUE(ReadGpuMetricSampling(*report)->empty());
  EXPECT_TRUE(AllSamples(*report, nullptr).empty());
}

}  // namespace
}  // namespace gpuscope::store
