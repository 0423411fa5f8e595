#include "util/units.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace gpuscope {

StatusOr<TimeUnit> ParseTimeUnit(std::string_view text) {
  if (text == "auto") return TimeUnit::kAuto;
  if (text == "s") return TimeUnit::kSeconds;
  if (text == "ms") return TimeUnit::kMilliseconds;
  if (text == "us") return TimeUnit::kMicroseconds;
  if (text == "ns") return TimeUnit::kNanoseconds;
  return Status::Error("unknown time unit '" + std::string(text) +
                       "' (expected s, ms, us, ns or auto)");
}

namespace {

std::string Printf(const char* format, int decimals, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, decimals, value);
  return buffer;
}

// Digits before the decimal point of a formatted non-negative number.
int IntegerDigits(const std::string& text) {
  std::size_t point = text.find('.');
  return static_cast<int>(point == std::string::npos ? text.size() : point);
}

// Values that are not finite or negative cannot come from a report (times are unsigned),
// but a corrupt report must not make us print "nan" or "-inf" into a column.
double Sanitize(double value) { return std::isfinite(value) && value > 0 ? value : 0; }

struct ScaledUnit {
  double scale;
  const char* suffix;
  int significant;
};

// Chooses the unit in which `value` lies in [1, limit), promoting to the next unit when
// rounding carries the number up to `limit` (999.995us -> "1.0000ms").
std::string FormatScaled(double value, const ScaledUnit* units, int unit_count, double limit) {
  int index = 0;
  while (index + 1 < unit_count && value >= units[index + 1].scale) ++index;
  for (;; ++index) {
    const ScaledUnit& unit = units[index];
    std::string text = FormatSignificant(value / unit.scale, unit.significant);
    bool last = index + 1 == unit_count;
    if (!last && std::strtod(text.c_str(), nullptr) >= limit) continue;
    return text + unit.suffix;
  }
}

// The same for integer values, in exact integer arithmetic. Traces format two times per
// row for millions of rows, and printf of doubles was most of their cost.
using Wide = unsigned __int128;

constexpr std::uint64_t kPowersOf10[20] = {1ull,
                                           10ull,
                                           100ull,
                                           1000ull,
                                           10000ull,
                                           100000ull,
                                           1000000ull,
                                           10000000ull,
                                           100000000ull,
                                           1000000000ull,
                                           10000000000ull,
                                           100000000000ull,
                                           1000000000000ull,
                                           10000000000000ull,
                                           100000000000000ull,
                                           1000000000000000ull,
                                           10000000000000000ull,
                                           100000000000000000ull,
                                           1000000000000000000ull,
                                           10000000000000000000ull};

int DigitCount(std::uint64_t value) {
  int digits = 1;
  while (digits < 20 && value >= kPowersOf10[digits]) ++digits;
  return digits;
}

// value * 10^decimals / scale, rounded half up.
Wide ScaledRounded(std::uint64_t value, int decimals, std::uint64_t scale) {
  return (static_cast<Wide>(value) * kPowersOf10[decimals] * 2 + scale) /
         (static_cast<Wide>(scale) * 2);
}

// `units` is a fixed-point number with `decimals` decimals: (12345, 2) -> "123.45".
std::string FixedPoint(Wide units, int decimals) {
  char digits[48];
  int length = 0;
  // 64-bit division is several times cheaper than 128-bit; values above 2^64 are rare.
  while (units > UINT64_MAX) {
    digits[length++] = static_cast<char>('0' + static_cast<int>(units % 10));
    units /= 10;
  }
  auto narrow = static_cast<std::uint64_t>(units);
  do {
    digits[length++] = static_cast<char>('0' + static_cast<int>(narrow % 10));
    narrow /= 10;
  } while (narrow != 0 || length <= decimals);
  std::string text;
  text.reserve(length + 1);
  for (int i = length - 1; i >= 0; --i) {
    text.push_back(digits[i]);
    if (i == decimals && decimals > 0) text.push_back('.');
  }
  return text;
}

struct IntegerUnit {
  std::uint64_t scale;
  const char* suffix;
  int significant;
};

std::string FormatScaledInteger(std::uint64_t value, const IntegerUnit* units, int unit_count,
                                std::uint64_t limit) {
  int index = 0;
  while (index + 1 < unit_count && value >= units[index + 1].scale) ++index;
  for (;; ++index) {
    const IntegerUnit& unit = units[index];
    int integer_digits = DigitCount(value / unit.scale);
    int decimals = std::max(0, unit.significant - integer_digits);
    Wide rounded = ScaledRounded(value, decimals, unit.scale);
    bool last = index + 1 == unit_count;
    if (!last && rounded / kPowersOf10[decimals] >= limit) continue;
    // Rounding may add a digit (9.99996 -> "10.0000"): one decimal fewer keeps the count.
    if (decimals > 0 &&
        rounded >= static_cast<Wide>(kPowersOf10[integer_digits]) * kPowersOf10[decimals]) {
      --decimals;
      rounded = ScaledRounded(value, decimals, unit.scale);
    }
    return FixedPoint(rounded, decimals) + unit.suffix;
  }
}

// Whether `value` is a whole number the integer path can take.
bool IsWhole(double value) { return value < 9.2e18 && value == std::floor(value); }

}  // namespace

std::string FormatSignificant(double value, int significant) {
  value = Sanitize(value);
  int integer_digits = value >= 1 ? static_cast<int>(std::floor(std::log10(value))) + 1 : 1;
  int decimals = std::max(0, significant - integer_digits);
  std::string text = Printf("%.*f", decimals, value);
  // Rounding may add a digit (9.99996 -> "10.0000"): one decimal fewer keeps the count.
  if (decimals > 0 && IntegerDigits(text) > integer_digits) {
    text = Printf("%.*f", decimals - 1, value);
  }
  return text;
}

std::string FormatTime(double nanoseconds, TimeUnit unit) {
  nanoseconds = Sanitize(nanoseconds);
  if (unit != TimeUnit::kAuto) {
    // Nanosecond resolution: the value rounded to whole ns, then the point moved.
    auto whole = static_cast<std::uint64_t>(std::min(std::round(nanoseconds), 1.8e19));
    int decimals = unit == TimeUnit::kSeconds        ? 9
                   : unit == TimeUnit::kMilliseconds ? 6
                   : unit == TimeUnit::kMicroseconds ? 3
                                                     : 0;
    return FixedPoint(whole, decimals).append(TimeUnitSuffix(unit));
  }
  double rounded = std::round(nanoseconds);
  if (rounded < 1000) return std::to_string(static_cast<int>(rounded)) + "ns";
  if (IsWhole(nanoseconds)) {
    static constexpr IntegerUnit kUnits[] = {
        {1000, "us", 5}, {1000000, "ms", 5}, {1000000000, "s", 6}};
    return FormatScaledInteger(static_cast<std::uint64_t>(nanoseconds), kUnits, 3, 1000);
  }
  static constexpr ScaledUnit kUnits[] = {{1e3, "us", 5}, {1e6, "ms", 5}, {1e9, "s", 6}};
  // max(): 999.6ns rounds to 1000ns, which is written as 1.0000us, not 0.99960us.
  return FormatScaled(std::max(nanoseconds, 1000.0), kUnits, 3, 1000);
}

std::string_view TimeUnitSuffix(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kSeconds:
      return "s";
    case TimeUnit::kMilliseconds:
      return "ms";
    case TimeUnit::kMicroseconds:
      return "us";
    case TimeUnit::kNanoseconds:
      return "ns";
    case TimeUnit::kAuto:
      break;
  }
  return "";
}

TimeUnit CsvTimeUnit(TimeUnit requested) {
  return requested == TimeUnit::kAuto ? TimeUnit::kMicroseconds : requested;
}

std::string FormatCsvTime(double nanoseconds, TimeUnit unit) {
  std::uint64_t scale = 1;
  switch (CsvTimeUnit(unit)) {
    case TimeUnit::kSeconds:
      scale = 1000000000;
      break;
    case TimeUnit::kMilliseconds:
      scale = 1000000;
      break;
    case TimeUnit::kMicroseconds:
    case TimeUnit::kAuto:
      scale = 1000;
      break;
    case TimeUnit::kNanoseconds:
      scale = 1;
      break;
  }
  nanoseconds = Sanitize(nanoseconds);
  if (IsWhole(nanoseconds)) {
    return FixedPoint(ScaledRounded(static_cast<std::uint64_t>(nanoseconds), 6, scale), 6);
  }
  return Printf("%.*f", 6, nanoseconds / static_cast<double>(scale));
}

std::string FormatBytes(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + "B";
  static constexpr IntegerUnit kUnits[] = {
      {1ull << 10, "KB", 5}, {1ull << 20, "MB", 5}, {1ull << 30, "GB", 5}, {1ull << 40, "TB", 5}};
  return FormatScaledInteger(bytes, kUnits, 4, 1024);
}

std::string FormatThroughput(std::uint64_t bytes, std::uint64_t duration_ns) {
  if (duration_ns == 0) return "-";
  double per_second = static_cast<double>(bytes) * 1e9 / static_cast<double>(duration_ns);
  static constexpr ScaledUnit kUnits[] = {{1.0, "B/s", 5},
                                          {1024.0, "KB/s", 5},
                                          {1024.0 * 1024, "MB/s", 5},
                                          {1024.0 * 1024 * 1024, "GB/s", 5},
                                          {1024.0 * 1024 * 1024 * 1024, "TB/s", 5}};
  return FormatScaled(per_second, kUnits, 5, 1024);
}

}  // namespace gpuscope
