// Which evaluated metric values can be true (analysis/value_range.h), and that
// the one place values are read (AssignMetrics) leaves out the others, counted by why.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/profile_loader.h"
#include "analysis/value_range.h"

namespace gpuscope::analysis::metrics {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

TEST(MetricValueRange, ValuesOfARealRecordingAreKept) {
  // tests/data/reports/h100_metrics_full.sqlite: CUPTI's ratios pass 100% on real hardware.
  EXPECT_EQ(CheckMetricValue(316.326530612245, "%"), std::nullopt);  // L2 write hit rate
  EXPECT_EQ(CheckMetricValue(112.272174969623, "%"), std::nullopt);  // L1/TEX throughput
  EXPECT_EQ(CheckMetricValue(0, "%"), std::nullopt);
  EXPECT_EQ(CheckMetricValue(287200, "nsecond"), std::nullopt);
  EXPECT_EQ(CheckMetricValue(9975939072, "inst"), std::nullopt);
  EXPECT_EQ(CheckMetricValue(2899749538461.54, "byte/second"), std::nullopt);
  EXPECT_EQ(CheckMetricValue(0.18, ""), std::nullopt);
  EXPECT_EQ(CheckMetricValue(-3, ""), std::nullopt);  // a unitless ratio's sign is its own
}

TEST(MetricValueRange, PercentagesFarBeyondAnyMeasuredOneAreImpossible) {
  EXPECT_EQ(CheckMetricValue(1042392291.90, "%"), ImpossibleValue::kPercentOutOfRange);
  EXPECT_EQ(CheckMetricValue(kHighestPercent + 1, "%"), ImpossibleValue::kPercentOutOfRange);
  EXPECT_EQ(CheckMetricValue(-5, "%"), ImpossibleValue::kPercentOutOfRange);
  EXPECT_EQ(CheckMetricValue(-0.5, "%"), std::nullopt);  // rounding below zero
}

TEST(MetricValueRange, NegativeCountsDurationsAndRatesAreImpossible) {
  EXPECT_EQ(CheckMetricValue(-287200, "nsecond"), ImpossibleValue::kNegative);
  EXPECT_EQ(CheckMetricValue(-1, "inst"), ImpossibleValue::kNegative);
  EXPECT_EQ(CheckMetricValue(-1e9, "cycle/second"), ImpossibleValue::kNegative);
}

TEST(MetricValueRange, CountsPastTwoToTheFiftyThreeAreImpossible) {
  EXPECT_EQ(CheckMetricValue(9223372036854775807.0, "inst"), ImpossibleValue::kCountTooLarge);
  EXPECT_EQ(CheckMetricValue(kLargestCount * 2, "nsecond"), ImpossibleValue::kCountTooLarge);
  EXPECT_EQ(CheckMetricValue(kLargestCount, "byte"), std::nullopt);
  // A rate is no count: its size depends on the unit of time.
  EXPECT_EQ(CheckMetricValue(kLargestCount * 2, "byte/second"), std::nullopt);
}

TEST(MetricValueRange, InfinityIsNoValueInAnyUnit) {
  for (const char* unit : {"%", "cycle/second", "inst", "nsecond", ""}) {
    EXPECT_EQ(CheckMetricValue(kInfinity, unit), ImpossibleValue::kNotFinite) << unit;
    EXPECT_EQ(CheckMetricValue(-kInfinity, unit), ImpossibleValue::kNotFinite) << unit;
  }
}

TEST(MetricValueRange, StoredCountsAreAtMostTwoToThe53) {
  EXPECT_EQ(CheckStoredCount(0), std::nullopt);
  EXPECT_EQ(CheckStoredCount(std::uint64_t{1} << 53), std::nullopt);
  EXPECT_EQ(CheckStoredCount((std::uint64_t{1} << 53) + 1), ImpossibleValue::kCountTooLarge);
  EXPECT_EQ(CheckStoredCount(std::uint64_t{1} << 60), ImpossibleValue::kCountTooLarge);
  // Stored as SQLite's -5, read back unsigned.
  EXPECT_EQ(CheckStoredCount(static_cast<std::uint64_t>(std::int64_t{-5})),
            ImpossibleValue::kNegative);
}

TEST(MetricValueRange, OneWarningSaysHowManyAndWhy) {
  ImpossibleValueCounts counts;
  EXPECT_EQ(ImpossibleValueWarning(counts), std::nullopt);
  counts.Add(ImpossibleValue::kNotFinite);
  EXPECT_EQ(ImpossibleValueWarning(counts),
            "1 metric value of profiled kernels cannot be true (1 value that is not a finite "
            "number): left out");
  counts.Add(ImpossibleValue::kPercentOutOfRange);
  counts.Add(ImpossibleValue::kPercentOutOfRange);
  counts.Add(ImpossibleValue::kNegative);
  counts.Add(ImpossibleValue::kCountTooLarge);
  counts.Add(ImpossibleValue::kNotFinite);
  EXPECT_EQ(ImpossibleValueWarning(counts),
            "6 metric values of profiled kernels cannot be true (2 percentages outside -1% to "
            "1000%, 1 negative count, duration or rate, 1 count or duration above 2^53, 2 values "
            "that are not finite numbers): left out");
}

store::StoredMetric Stored(std::string name, std::optional<double> value, std::string unit) {
  store::StoredMetric metric;
  metric.name = std::move(name);
  metric.value = value;
  metric.unit = std::move(unit);
  return metric;
}

TEST(MetricValueRange, TheReaderLeavesOutWhatCannotBeTrueAndCountsIt) {
  store::StoredMetric text = Stored("gpu__time_duration.sum", std::nullopt, "nsecond");
  text.not_a_number = true;  // 'NaN' stored as text, which SQLite reads as 0
  const std::vector<store::StoredMetric> stored = {
      Stored("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 1042392291.90,
             "%"),
      Stored("sm__throughput.avg.pct_of_peak_sustained_elapsed", 17.59, "%"),
      Stored("gpc__cycles_elapsed.avg.per_second", kInfinity, "cycle/second"),
      Stored("smsp__inst_executed.sum", 9223372036854775807.0, "inst"),
      Stored("dram__bytes.sum", std::nullopt, "byte"),   // CUPTI could not evaluate it
      Stored("lts__t_bytes.sum", std::nan(""), "byte"),  // the same, before it was stored
      text,
  };
  KernelProfile profile;
  profile.metrics["stale"] = 1;
  AssignMetrics(profile, stored);
  EXPECT_EQ(profile.metrics.size(), 1u);
  EXPECT_EQ(profile.metrics.at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 17.59);
  EXPECT_EQ(profile.impossible_values.total(), 4u);
  EXPECT_EQ(profile.impossible_values.count(ImpossibleValue::kNotFinite), 2u);
  EXPECT_TRUE(profile.Evaluated());

  KernelProfile clean;
  AssignMetrics(clean, {stored[1]});
  EXPECT_EQ(ImpossibleValueWarning(std::vector<KernelProfile>{profile, clean}),
            "4 metric values of profiled kernels cannot be true (1 percentage outside -1% to "
            "1000%, 1 count or duration above 2^53, 2 values that are not finite numbers): left "
            "out");
  // Evaluating again starts the count again.
  AssignMetrics(profile, {stored[1]});
  EXPECT_EQ(profile.impossible_values.total(), 0u);
}

TEST(MetricValueRange, AKernelWhoseValuesWereAllImpossibleWasEvaluated) {
  KernelProfile profile;
  EXPECT_FALSE(profile.Evaluated());
  AssignMetrics(profile, {Stored("gpu__time_duration.sum", -1, "nsecond")});
  EXPECT_TRUE(profile.metrics.empty());
  EXPECT_TRUE(profile.Evaluated());
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
