#include "analysis/metrics/value_format.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpuscope::analysis::metrics {
namespace {

std::string Text(UnitKind kind, double value, std::string_view unit = "") {
  const ScaledValue s = ScaleValue(kind, unit, value);
  return FormatMetricNumber(s.value, true) + " " + s.text_unit;
}

TEST(MetricUnits, DurationsPickTheUnitByMagnitude) {
  EXPECT_EQ(Text(UnitKind::kDuration, 0), "0 ns");
  EXPECT_EQ(Text(UnitKind::kDuration, 704), "704 ns");
  EXPECT_EQ(Text(UnitKind::kDuration, 2720), "2.72 us");
  EXPECT_EQ(Text(UnitKind::kDuration, 61728), "61.73 us");
  EXPECT_EQ(Text(UnitKind::kDuration, 532600), "532.60 us");
  EXPECT_EQ(Text(UnitKind::kDuration, 59790000), "59.79 ms");
  EXPECT_EQ(Text(UnitKind::kDuration, 7.4e9), "7.40 s");
  EXPECT_EQ(Text(UnitKind::kDuration, 7.4e12), "7,400 s");  // no unit beyond seconds
}

TEST(MetricUnits, ValuesThatRoundUpToOneThousandMoveToTheNextUnit) {
  EXPECT_EQ(Text(UnitKind::kDuration, 999.99), "999.99 ns");
  EXPECT_EQ(Text(UnitKind::kDuration, 999.996), "1 us");
  EXPECT_EQ(Text(UnitKind::kDuration, 999996), "1 ms");
  EXPECT_EQ(Text(UnitKind::kBytes, 999.996), "1 Kbyte");
}

TEST(MetricUnits, CsvSpellsDurationsInFull) {
  EXPECT_EQ(ScaleValue(UnitKind::kDuration, "", 61728).csv_unit, "usecond");
  EXPECT_EQ(ScaleValue(UnitKind::kDuration, "", 5).csv_unit, "nsecond");
  EXPECT_EQ(ScaleValue(UnitKind::kDuration, "", 5e6).csv_unit, "msecond");
  EXPECT_EQ(ScaleValue(UnitKind::kDuration, "", 5e9).csv_unit, "second");
  EXPECT_EQ(ScaleValue(UnitKind::kFrequency, "", 1.98e9).csv_unit, "Ghz");
}

TEST(MetricUnits, FrequenciesBytesAndRates) {
  EXPECT_EQ(Text(UnitKind::kFrequency, 1.98e9), "1.98 Ghz");
  EXPECT_EQ(Text(UnitKind::kFrequency, 3.198e9), "3.20 Ghz");
  EXPECT_EQ(Text(UnitKind::kFrequency, 764.44e6), "764.44 Mhz");
  EXPECT_EQ(Text(UnitKind::kBytes, 0, "/block"), "0 byte/block");
  EXPECT_EQ(Text(UnitKind::kBytes, 1024, "/block"), "1.02 Kbyte/block");  // 1000-based
  EXPECT_EQ(Text(UnitKind::kBytes, 102400), "102.40 Kbyte");
  EXPECT_EQ(Text(UnitKind::kBytes, 134230000), "134.23 Mbyte");
  EXPECT_EQ(Text(UnitKind::kByteRate, 76.27e9), "76.27 Gbyte/s");
  EXPECT_EQ(Text(UnitKind::kByteRate, 3.32e12), "3.32 Tbyte/s");
  EXPECT_EQ(Text(UnitKind::kFlopRate, 66.9e12), "66.90 Tflop/s");
  EXPECT_EQ(ScaleValue(UnitKind::kBytes, "", 2e6).divisor, 1e6);
}

TEST(MetricUnits, FixedUnitsAreNeverScaled) {
  EXPECT_EQ(Text(UnitKind::kFixed, 65472978, "cycle"), "65,472,978 cycle");
  EXPECT_EQ(Text(UnitKind::kFixed, 65467464.44, "cycle"), "65,467,464.44 cycle");
  EXPECT_EQ(Text(UnitKind::kFixed, 71.04, "%"), "71.04 %");
}

TEST(MetricUnits, NumbersLikeNcu) {
  EXPECT_EQ(FormatMetricNumber(8372, true), "8,372");
  EXPECT_EQ(FormatMetricNumber(6232.84, true), "6,232.84");
  EXPECT_EQ(FormatMetricNumber(6232.84, false), "6232.84");
  EXPECT_EQ(FormatMetricNumber(71.04, true), "71.04");
  EXPECT_EQ(FormatMetricNumber(75, true), "75");
  EXPECT_EQ(FormatMetricNumber(0.004, true), "0");  // rounds to zero: no "-0", no decimals
  EXPECT_EQ(FormatMetricNumber(-0.004, true), "0");
  EXPECT_EQ(FormatMetricNumber(-1234.5, true), "-1,234.50");
  EXPECT_EQ(FormatMetricNumber(999999.999, true), "1,000,000");
  EXPECT_EQ(FormatMetricNumber(100, true), "100");
  EXPECT_EQ(FormatMetricNumber(std::nan(""), true), "n/a");
  EXPECT_EQ(FormatMetricNumber(std::numeric_limits<double>::infinity(), false), "n/a");
}

TEST(MetricUnits, RawNumbersArePlainAndExact) {
  EXPECT_EQ(FormatRawNumber(61728), "61728");
  EXPECT_EQ(FormatRawNumber(1.98e9), "1980000000");
  EXPECT_EQ(FormatRawNumber(0.3125), "0.3125");
  EXPECT_EQ(FormatRawNumber(1e-7), "0.0000001");
  EXPECT_EQ(FormatRawNumber(34.6), "34.6");
  EXPECT_EQ(std::stod(FormatRawNumber(0.1 + 0.2)), 0.1 + 0.2);
  EXPECT_EQ(FormatRawNumber(std::nan("")), "n/a");
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
