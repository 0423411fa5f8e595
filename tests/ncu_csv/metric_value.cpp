#include "metric_value.h"
#include "util/trim.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace gpuscope::ncu_csv {
namespace {

// Removes thousands separators from the integer part, checking they group by three.
std::optional<std::string> WithoutSeparators(std::string_view text) {
  size_t integer_end = text.find_first_of(".eE");
  if (integer_end == std::string_view::npos) integer_end = text.size();
  std::string_view integer = text.substr(0, integer_end);
  if (integer.find(',') == std::string_view::npos) return std::string(text);
  size_t digits_start = (!integer.empty() && (integer[0] == '-' || integer[0] == '+')) ? 1 : 0;
  std::string result(integer.substr(0, digits_start));
  std::string_view digits = integer.substr(digits_start);
  size_t first_comma = digits.find(',');
  if (first_comma == 0 || first_comma > 3) return std::nullopt;
  size_t group_start = 0;
  while (group_start <= digits.size()) {
    size_t comma = digits.find(',', group_start);
    std::string_view group =
        digits.substr(group_start, comma == std::string_view::npos ? std::string_view::npos
                                                                   : comma - group_start);
    if (group_start > 0 && group.size() != 3) return std::nullopt;
    result += group;
    if (comma == std::string_view::npos) break;
    group_start = comma + 1;
  }
  result += text.substr(integer_end);
  return result;
}

// Scale of a size or count prefix: "K" in "Kbyte".
double PrefixScale(char prefix) {
  switch (prefix) {
    case 'K':
      return 1e3;
    case 'M':
      return 1e6;
    case 'G':
      return 1e9;
    case 'T':
      return 1e12;
    default:
      return 0;
  }
}

// Nanoseconds per unit of time, 0 when `word` is no time unit.
double NanosecondsPer(std::string_view word) {
  if (word == "nsecond" || word == "ns") return 1;
  if (word == "usecond" || word == "us") return 1e3;
  if (word == "msecond" || word == "ms") return 1e6;
  if (word == "second" || word == "s") return 1e9;
  return 0;
}

// Scale of a numerator unit: "Mbyte" 1e6, "usecond" 1e3, "Ghz" 1e9; 1 when unknown.
double NumeratorScale(std::string_view word) {
  if (double ns = NanosecondsPer(word); ns != 0) return ns;
  static constexpr std::string_view kScalable[] = {"byte",  "cycle", "inst",     "sector",
                                                   "hz",    "warp",  "thread",   "request",
                                                   "block", "flop",  "wavefront"};
  if (word.size() > 1) {
    double prefix = PrefixScale(word[0]);
    std::string_view rest = word.substr(1);
    for (auto base : kScalable) {
      if (prefix != 0 && rest == base) return prefix;
    }
    if (prefix != 0 && (rest == "Hz")) return prefix;
  }
  return 1;
}

}  // namespace

std::optional<double> ParseMetricNumber(std::string_view text) {
  text = TrimWhitespace(text);
  if (text.empty()) return std::nullopt;
  std::optional<std::string> plain = WithoutSeparators(text);
  if (!plain) return std::nullopt;
  std::string_view digits = *plain;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  double value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
  if (!std::isfinite(value)) return std::nullopt;
  return value;
}

double UnitScale(std::string_view unit) {
  unit = TrimWhitespace(unit);
  size_t slash = unit.find('/');
  if (slash == std::string_view::npos) return NumeratorScale(unit);
  double numerator = NumeratorScale(unit.substr(0, slash));
  double per_ns = NanosecondsPer(unit.substr(slash + 1));
  // A rate per time unit: base is per second, so "x/usecond" is 1e6 "x/second".
  if (per_ns != 0) return numerator * (1e9 / per_ns);
  return numerator;
}

MetricValue MakeMetricValue(std::string text, std::string unit) {
  MetricValue value;
  value.number = ParseMetricNumber(text);
  if (value.number) *value.number *= UnitScale(unit);
  value.text = std::move(text);
  value.unit = std::move(unit);
  return value;
}

}  // namespace gpuscope::ncu_csv
