// Evaluation of counter data. The error paths need no fixture; the rest reads the counter-data
// image of k_saxpy's first launch from a report recorded on the H200 by `gpuscope profile`
// (tests/data/reports/h100_metrics_full.sqlite, scripts/record-profile-fixtures.sh): auto range
// + kernel replay, one range per image.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "cupti/host/metric_host.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "test_support.h"

namespace gpuscope::cupti::host {
namespace {

using testing::Gh100;
using testing::SectionMetrics;

const std::string kFixture =
    std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite";

// The first profiled launch's image (k_saxpy).
std::vector<std::uint8_t> ReadFirstImage(const std::string& path) {
  auto report = store::ReportReader::Open(path);
  if (!report.ok()) return {};
  auto profiles = store::ReadProfiledKernels(**report);
  if (!profiles.ok() || profiles->empty()) return {};
  auto image = store::ReadCounterData(**report, profiles->front().id);
  return image.ok() ? *image : std::vector<std::uint8_t>();
}

TEST(CounterData, EmptyImageIsAnErrorNotACrash) {
  Gh100();
  StatusOr<std::size_t> ranges = CounterDataRangeCount({});
  ASSERT_FALSE(ranges.ok());
  EXPECT_NE(ranges.status().message().find("empty"), std::string::npos);
  auto values = Gh100().Evaluate({}, 0, {"gpu__time_duration.sum"});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.status().message().find("empty"), std::string::npos);
}

class RecordedCounterData : public ::testing::Test {
 protected:
  void SetUp() override {
    Gh100();  // the host side must be initialised before CUPTI reads an image
    image_ = ReadFirstImage(kFixture);
    ASSERT_FALSE(image_.empty()) << kFixture;
    StatusOr<std::size_t> ranges = CounterDataRangeCount(image_);
    ASSERT_TRUE(ranges.ok()) << ranges.status().message();
    ranges_ = *ranges;
    ASSERT_GT(ranges_, 0u);
  }

  std::vector<std::uint8_t> image_;
  std::size_t ranges_ = 0;
};

TEST_F(RecordedCounterData, EveryRangeHasADurationAndSanePercentages) {
  std::vector<std::string> names = {"gpu__time_duration.sum",
                                    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                    "gpc__cycles_elapsed.max"};
  for (std::size_t range = 0; range < ranges_; ++range) {
    auto values = Gh100().Evaluate(image_, range, names);
    ASSERT_TRUE(values.ok()) << values.status().message();
    ASSERT_EQ(values->size(), names.size());
    ASSERT_TRUE((*values)[0].has_value()) << "range " << range;
    EXPECT_GT(*(*values)[0], 0.0) << "range " << range;
    ASSERT_TRUE((*values)[1].has_value()) << "range " << range;
    EXPECT_GE(*(*values)[1], 0.0);
    EXPECT_LE(*(*values)[1], 100.5);
    ASSERT_TRUE((*values)[2].has_value()) << "range " << range;
    EXPECT_GT(*(*values)[2], 0.0);
  }
}

TEST_F(RecordedCounterData, EverySectionMetricEvaluates) {
  std::vector<std::string> names = SectionMetrics();
  auto values = Gh100().Evaluate(image_, 0, names);
  ASSERT_TRUE(values.ok()) << values.status().message();
  for (std::size_t i = 0; i < names.size(); ++i) {
    EXPECT_TRUE((*values)[i].has_value()) << names[i];
  }
}

TEST_F(RecordedCounterData, OneBadNameSpoilsOnlyItself) {
  std::vector<std::string> good = {"gpu__time_duration.sum", "gpc__cycles_elapsed.max",
                                   "sm__cycles_active.avg"};
  auto batch = Gh100().Evaluate(image_, 0, good);
  ASSERT_TRUE(batch.ok()) << batch.status().message();
  std::vector<std::string> mixed = {good[0], "nope__not_a_metric.sum", good[1], good[2]};
  auto values = Gh100().Evaluate(image_, 0, mixed);
  ASSERT_TRUE(values.ok()) << values.status().message();
  ASSERT_EQ(values->size(), 4u);
  EXPECT_FALSE((*values)[1].has_value());
  EXPECT_EQ((*values)[0], (*batch)[0]);
  EXPECT_EQ((*values)[2], (*batch)[1]);
  EXPECT_EQ((*values)[3], (*batch)[2]);
}

TEST_F(RecordedCounterData, RangePastTheEndIsAnError) {
  auto values = Gh100().Evaluate(image_, ranges_, {"gpu__time_duration.sum"});
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.status().message().find(std::to_string(ranges_) + " ranges"), std::string::npos)
      << values.status().message();
}

TEST_F(RecordedCounterData, NoNamesGiveNoValues) {
  auto values = Gh100().Evaluate(image_, 0, {});
  ASSERT_TRUE(values.ok()) << values.status().message();
  EXPECT_TRUE(values->empty());
}

TEST_F(RecordedCounterData, TheWrongChipEvaluatesNothing) {
  // A GH100 image read as GA100 fails in CUPTI; it must not come back as numbers.
  StatusOr<std::unique_ptr<MetricHost>> ga100 = MetricHost::Open("GA100");
  ASSERT_TRUE(ga100.ok()) << ga100.status().message();
  auto values = (*ga100)->Evaluate(image_, 0, {"gpu__time_duration.sum"});
  if (values.ok()) {
    EXPECT_FALSE((*values)[0].has_value());
  }
}

}  // namespace
}  // namespace gpuscope::cupti::host
