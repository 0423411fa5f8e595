#include "metric_value.h"

#include <gtest/gtest.h>

namespace gpuscope::ncu_csv {
namespace {

TEST(ParseMetricNumber, ThousandsSeparatorsDecimalsExponentsAndSigns) {
  EXPECT_EQ(ParseMetricNumber("33,554,432"), 33554432.0);
  EXPECT_EQ(ParseMetricNumber("1,234.5"), 1234.5);
  EXPECT_EQ(ParseMetricNumber("0.52"), 0.52);
  EXPECT_EQ(ParseMetricNumber("4.0e-05"), 4.0e-05);
  EXPECT_EQ(ParseMetricNumber("-3"), -3.0);
  EXPECT_EQ(ParseMetricNumber("+7"), 7.0);
  EXPECT_EQ(ParseMetricNumber(" 12 "), 12.0);
  EXPECT_EQ(ParseMetricNumber("-1,000"), -1000.0);
}

TEST(ParseMetricNumber, WordsAndMisgroupedSeparatorsAreNotNumbers) {
  EXPECT_FALSE(ParseMetricNumber("n/a"));
  EXPECT_FALSE(ParseMetricNumber("Hopper"));
  EXPECT_FALSE(ParseMetricNumber(""));
  EXPECT_FALSE(ParseMetricNumber("1,23"));
  EXPECT_FALSE(ParseMetricNumber("1234,567"));
  EXPECT_FALSE(ParseMetricNumber(",123"));
  EXPECT_FALSE(ParseMetricNumber("12 kB"));
  EXPECT_FALSE(ParseMetricNumber("nan"));
  EXPECT_FALSE(ParseMetricNumber("inf"));
}

TEST(UnitScale, BaseUnitsAreOne) {
  for (const char* unit : {"", "byte", "nsecond", "%", "cycle", "inst", "sector", "byte/second",
                           "inst/cycle", "warp", "register/thread"}) {
    EXPECT_EQ(UnitScale(unit), 1.0) << unit;
  }
}

TEST(UnitScale, ScaledUnitsGoToBytesNanosecondsAndPerSecond) {
  EXPECT_EQ(UnitScale("Kbyte"), 1e3);
  EXPECT_EQ(UnitScale("Mbyte"), 1e6);
  EXPECT_EQ(UnitScale("Gbyte"), 1e9);
  EXPECT_EQ(UnitScale("usecond"), 1e3);
  EXPECT_EQ(UnitScale("msecond"), 1e6);
  EXPECT_EQ(UnitScale("second"), 1e9);
  EXPECT_EQ(UnitScale("Ghz"), 1e9);
  EXPECT_EQ(UnitScale("cycle/nsecond"), 1e9);
  EXPECT_EQ(UnitScale("Tbyte/second"), 1e12);
  EXPECT_EQ(UnitScale("Gbyte/usecond"), 1e15);
  EXPECT_EQ(UnitScale("Minst"), 1e6);
}

TEST(MakeMetricValue, KeepsTheTextAndScalesTheNumber) {
  MetricValue value = MakeMetricValue("61.73", "usecond");
  EXPECT_EQ(value.text, "61.73");
  EXPECT_EQ(value.unit, "usecond");
  ASSERT_TRUE(value.number);
  EXPECT_DOUBLE_EQ(*value.number, 61730.0);
  EXPECT_FALSE(MakeMetricValue("n/a", "byte").number);
}

}  // namespace
}  // namespace gpuscope::ncu_csv
