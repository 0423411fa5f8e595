// The statistics behind nsys's tables (duration_stats.h): medians and sample standard
// deviations checked against values computed by hand.
#include "analysis/duration_stats.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace gpuscope::analysis {
namespace {

TEST(SampleStats, MedianAndSampleStandardDeviation) {
  std::vector<std::uint64_t> even = {1000, 100, 400, 200};
  SampleStats stats = ComputeSampleStats(even);
  EXPECT_EQ(stats.count, 4u);
  EXPECT_EQ(stats.total, 1700u);
  EXPECT_DOUBLE_EQ(stats.mean, 425.0);
  EXPECT_DOUBLE_EQ(stats.median, 300.0);  // (200 + 400) / 2
  EXPECT_EQ(stats.min, 100u);
  EXPECT_EQ(stats.max, 1000u);
  // Deviations -325, -225, -25, 575: squares sum to 487500; / (4 - 1) = 162500.
  EXPECT_NEAR(stats.stddev, 403.1128874, 1e-6);

  std::vector<std::uint64_t> odd = {60, 50, 50};
  stats = ComputeSampleStats(odd);
  EXPECT_DOUBLE_EQ(stats.median, 50.0);
  EXPECT_NEAR(stats.stddev, 5.7735027, 1e-6);  // sqrt(66.67 / 2)

  std::vector<std::uint64_t> one = {42};
  stats = ComputeSampleStats(one);
  EXPECT_DOUBLE_EQ(stats.median, 42.0);
  EXPECT_DOUBLE_EQ(stats.stddev, 0.0);

  std::vector<std::uint64_t> none;
  EXPECT_EQ(ComputeSampleStats(none).count, 0u);
}

}  // namespace
}  // namespace gpuscope::analysis
