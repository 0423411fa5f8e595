#include "analysis/metrics/value_format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace gpuscope::analysis::metrics {
namespace {

struct Prefix {
  double factor;
  std::string_view text;
  std::string_view csv;
};

// The scale a value is shown in: the smallest step in which it prints below 1,000 once
// rounded to the two decimals we print (999.99 ns stays "999.99 ns"; 999.996 ns would print
// "1,000.00 ns", so it is "1 us"). The last step takes whatever is larger.
template <std::size_t N>
const Prefix& ChoosePrefix(const std::array<Prefix, N>& prefixes, double value) {
  const double magnitude = std::fabs(value);
  for (const Prefix& prefix : prefixes) {
    if (std::round(magnitude / prefix.factor * 100.0) < 100000.0) return prefix;
  }
  return prefixes.back();
}

constexpr std::array<Prefix, 4> kDuration = {{
    {1, "ns", "nsecond"},
    {1e3, "us", "usecond"},
    {1e6, "ms", "msecond"},
    {1e9, "s", "second"},
}};
constexpr std::array<Prefix, 4> kFrequency = {{
    {1, "hz", "hz"},
    {1e3, "Khz", "Khz"},
    {1e6, "Mhz", "Mhz"},
    {1e9, "Ghz", "Ghz"},
}};
constexpr std::array<Prefix, 6> kDecimal = {{
    {1, "", ""},
    {1e3, "K", "K"},
    {1e6, "M", "M"},
    {1e9, "G", "G"},
    {1e12, "T", "T"},
    {1e15, "P", "P"},
}};

ScaledValue Decimal(double value, std::string_view base, std::string_view suffix) {
  const Prefix& p = ChoosePrefix(kDecimal, value);
  std::string unit = std::string(p.text) + std::string(base) + std::string(suffix);
  return {value / p.factor, p.factor, unit, unit};
}

std::string GroupThousands(std::string_view digits) {
  // `digits` is an unsigned integer part.
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

}  // namespace

ScaledValue ScaleValue(UnitKind kind, std::string_view unit, double value) {
  switch (kind) {
    case UnitKind::kFixed:
      return {value, 1, std::string(unit), std::string(unit)};
    case UnitKind::kDuration: {
      const Prefix& p = ChoosePrefix(kDuration, value);
      return {value / p.factor, p.factor, std::string(p.text), std::string(p.csv)};
    }
    case UnitKind::kFrequency: {
      const Prefix& p = ChoosePrefix(kFrequency, value);
      return {value / p.factor, p.factor, std::string(p.text), std::string(p.csv)};
    }
    case UnitKind::kBytes:
      return Decimal(value, "byte", unit);
    case UnitKind::kByteRate:
      return Decimal(value, "byte/s", unit);
    case UnitKind::kFlopRate:
      return Decimal(value, "flop/s", unit);
  }
  return {value, 1, std::string(unit), std::string(unit)};
}

std::string FormatMetricNumber(double value, bool group_thousands) {
  if (!std::isfinite(value)) return "n/a";
  const double rounded = std::round(value * 100.0) / 100.0;
  const bool integral = rounded == std::floor(rounded);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, integral ? "%.0f" : "%.2f", std::fabs(rounded));
  std::string text = buffer;
  if (group_thousands) {
    const auto dot = text.find('.');
    std::string grouped = GroupThousands(std::string_view(text).substr(0, dot));
    if (dot != std::string::npos) grouped.append(text, dot, std::string::npos);
    text = std::move(grouped);
  }
  // No "-0" for values that round to zero.
  if (rounded >= 0) return text;
  std::string negative = "-";
  negative.append(text);
  return negative;
}

std::string FormatRawNumber(double value) {
  if (!std::isfinite(value)) return "n/a";
  // Shortest digits that read back as the same double, never in exponent notation.
  char buffer[512];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed);
  if (result.ec != std::errc()) return "n/a";
  return std::string(buffer, result.ptr);
}

}  // namespace gpuscope::analysis::metrics
