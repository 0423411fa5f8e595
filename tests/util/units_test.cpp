// nvprof's number formats, checked against values printed by nvprof itself (reference
// outputs 000 and 002, and the --print-gpu-trace sample in docs/anchors).
#include "util/units.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

namespace gpuscope {
namespace {

TEST(FormatTime, NanosecondsAreIntegers) {
  EXPECT_EQ(FormatTime(0, TimeUnit::kAuto), "0ns");
  EXPECT_EQ(FormatTime(80, TimeUnit::kAuto), "80ns");
  EXPECT_EQ(FormatTime(704, TimeUnit::kAuto), "704ns");
  EXPECT_EQ(FormatTime(999, TimeUnit::kAuto), "999ns");
  EXPECT_EQ(FormatTime(593.4, TimeUnit::kAuto), "593ns");  // an average, rounded
}

TEST(FormatTime, FiveSignificantDigitsForMicroAndMilliseconds) {
  EXPECT_EQ(FormatTime(3424, TimeUnit::kAuto), "3.4240us");
  EXPECT_EQ(FormatTime(9323, TimeUnit::kAuto), "9.3230us");
  EXPECT_EQ(FormatTime(27969, TimeUnit::kAuto), "27.969us");
  EXPECT_EQ(FormatTime(420610, TimeUnit::kAuto), "420.61us");
  EXPECT_EQ(FormatTime(1380000, TimeUnit::kAuto), "1.3800ms");
  EXPECT_EQ(FormatTime(165860000, TimeUnit::kAuto), "165.86ms");
}

TEST(FormatTime, SixSignificantDigitsForSeconds) {
  EXPECT_EQ(FormatTime(7211080000.0, TimeUnit::kAuto), "7.21108s");
  EXPECT_EQ(FormatTime(13043600000.0, TimeUnit::kAuto), "13.0436s");
  EXPECT_EQ(FormatTime(2000.0e9, TimeUnit::kAuto), "2000.00s");  // no unit above seconds
}

TEST(FormatTime, RoundingCarriesIntoTheNextUnit) {
  EXPECT_EQ(FormatTime(999995, TimeUnit::kAuto), "1.0000ms");  // 999.995us
  EXPECT_EQ(FormatTime(999994, TimeUnit::kAuto), "999.99us");
  EXPECT_EQ(FormatTime(999.6, TimeUnit::kAuto), "1.0000us");      // rounds to 1000ns
  EXPECT_EQ(FormatTime(999999500, TimeUnit::kAuto), "1.00000s");  // 999.9995ms
}

TEST(FormatTime, RoundingKeepsTheDigitCountWithinAUnit) {
  EXPECT_EQ(FormatTime(9999.96, TimeUnit::kAuto), "10.000us");  // not "10.0000us"
  EXPECT_EQ(FormatTime(99999.6, TimeUnit::kAuto), "100.00us");
}

TEST(FormatTime, WholeNanosecondsTakeTheExactIntegerPath) {
  // The same carries as above, for whole numbers (traces format millions of them).
  EXPECT_EQ(FormatTime(9999996, TimeUnit::kAuto), "10.000ms");   // 9.999996ms
  EXPECT_EQ(FormatTime(99999600, TimeUnit::kAuto), "100.00ms");  // 99.9996ms
  EXPECT_EQ(FormatTime(999999999, TimeUnit::kAuto), "1.00000s");
  EXPECT_EQ(FormatTime(1000, TimeUnit::kAuto), "1.0000us");
  EXPECT_EQ(FormatTime(18446744073709.0, TimeUnit::kAuto), "18446.7s");
}

// Every auto-unit time has nvprof's shape and is within half a unit of its last digit.
TEST(FormatTime, PropertyShapeAndPrecision) {
  std::uint64_t state = 12345;
  for (int i = 0; i < 200000; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    std::uint64_t magnitude = (state >> 59) % 13;  // 1ns .. 10000s
    double value = static_cast<double>((state >> 20) % 1000000) / 1000.0;
    for (std::uint64_t m = 0; m < magnitude; ++m) value *= 10;
    if (i % 2 == 0) value = std::floor(value);  // both the integer and the double path
    std::string text = FormatTime(value, TimeUnit::kAuto);
    std::size_t digits_end = text.find_first_not_of("0123456789.");
    ASSERT_NE(digits_end, std::string::npos) << text;
    std::string number = text.substr(0, digits_end);
    std::string unit = text.substr(digits_end);
    double scale = unit == "ns" ? 1 : unit == "us" ? 1e3 : unit == "ms" ? 1e6 : 1e9;
    ASSERT_TRUE(unit == "ns" || unit == "us" || unit == "ms" || unit == "s") << text;
    double shown = std::strtod(number.c_str(), nullptr);
    if (unit == "ns") {
      ASSERT_EQ(number.find('.'), std::string::npos) << text;
      ASSERT_LT(shown, 1000) << text;
      ASSERT_LE(std::fabs(shown - value), 0.5) << value << " " << text;
      continue;
    }
    std::size_t point = number.find('.');
    std::size_t significant = number.size() - (point == std::string::npos ? 0 : 1);
    if (unit == "s") {
      // Seconds have no larger unit: past 999999s the integer digits simply grow.
      ASSERT_EQ(significant,
                std::max<std::size_t>(6, point == std::string::npos ? number.size() : point))
          << value << " " << text;
    } else {
      ASSERT_EQ(significant, 5u) << value << " " << text;
      ASSERT_LT(shown, 1000) << text;
    }
    ASSERT_GE(shown, 1) << text;
    std::size_t decimals = point == std::string::npos ? 0 : number.size() - point - 1;
    double half_step = 0.5 * std::pow(10.0, -static_cast<double>(decimals)) * scale;
    // Values just below 1000ns round to 1000ns first ("1.0000us"): off by up to half a ns.
    double tolerance = std::max(half_step * 1.000001, 0.5);
    ASSERT_LE(std::fabs(shown * scale - value), tolerance) << value << " " << text;
  }
}

TEST(FormatTime, FixedUnitKeepsNanosecondResolution) {
  EXPECT_EQ(FormatTime(165860000, TimeUnit::kSeconds), "0.165860000s");
  EXPECT_EQ(FormatTime(165860000, TimeUnit::kMilliseconds), "165.860000ms");
  EXPECT_EQ(FormatTime(3424, TimeUnit::kMicroseconds), "3.424us");
  EXPECT_EQ(FormatTime(80, TimeUnit::kMicroseconds), "0.080us");
  EXPECT_EQ(FormatTime(593.6, TimeUnit::kNanoseconds), "594ns");
  EXPECT_EQ(FormatTime(0, TimeUnit::kMilliseconds), "0.000000ms");
}

TEST(FormatTime, ImpossibleValuesDoNotLeakIntoColumns) {
  EXPECT_EQ(FormatTime(-5, TimeUnit::kAuto), "0ns");
  EXPECT_EQ(FormatTime(std::numeric_limits<double>::quiet_NaN(), TimeUnit::kAuto), "0ns");
}

TEST(FormatCsvTime, SixDecimalsInTheCsvUnit) {
  EXPECT_EQ(CsvTimeUnit(TimeUnit::kAuto), TimeUnit::kMicroseconds);
  EXPECT_EQ(CsvTimeUnit(TimeUnit::kMilliseconds), TimeUnit::kMilliseconds);
  // nvprof --csv: "API calls",78.020031,7570567.921000,11,... (microseconds)
  EXPECT_EQ(FormatCsvTime(7570567921, TimeUnit::kAuto), "7570567.921000");
  EXPECT_EQ(FormatCsvTime(1888, TimeUnit::kMicroseconds), "1.888000");
  EXPECT_EQ(FormatCsvTime(1500000, TimeUnit::kMilliseconds), "1.500000");
  EXPECT_EQ(FormatCsvTime(704, TimeUnit::kNanoseconds), "704.000000");
  EXPECT_EQ(FormatCsvTime(2500000000.0, TimeUnit::kSeconds), "2.500000");
}

TEST(FormatBytes, BinaryUnitsWithFiveSignificantDigits) {
  EXPECT_EQ(FormatBytes(0), "0B");
  EXPECT_EQ(FormatBytes(4), "4B");
  EXPECT_EQ(FormatBytes(1023), "1023B");
  EXPECT_EQ(FormatBytes(1024), "1.0000KB");
  EXPECT_EQ(FormatBytes(262144), "256.00KB");
  EXPECT_EQ(FormatBytes(3 * 1024 * 1024 / 2), "1.5000MB");
  EXPECT_EQ(FormatBytes(1048575), "1.0000MB");  // 1023.999KB rounds up to the next unit
  EXPECT_EQ(FormatBytes(5ull << 40), "5.0000TB");
}

TEST(FormatThroughput, GigabytesOfTwoToTheThirty) {
  // nvprof: 256.00KB in 26.016us -> 9.3842GB/s, in 25.952us -> 9.4074GB/s.
  EXPECT_EQ(FormatThroughput(262144, 26016), "9.3842GB/s");
  EXPECT_EQ(FormatThroughput(262144, 25952), "9.4074GB/s");
  EXPECT_EQ(FormatThroughput(262144, 22016), "11.089GB/s");
  EXPECT_EQ(FormatThroughput(1000, 1000000000), "1000.0B/s");
  EXPECT_EQ(FormatThroughput(4, 0), "-");
}

TEST(FormatSignificant, CountsDigitsAfterRounding) {
  EXPECT_EQ(FormatSignificant(1.0, 5), "1.0000");
  EXPECT_EQ(FormatSignificant(123.456, 5), "123.46");
  EXPECT_EQ(FormatSignificant(99.9996, 5), "100.00");
  EXPECT_EQ(FormatSignificant(123456.7, 5), "123457");
}

}  // namespace
}  // namespace gpuscope
