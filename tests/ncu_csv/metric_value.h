// One metric value as a profiler printed it, and as a number in base units. ncu prints
// "33,554,432" (thousands separators), "0.52", "4.0e-05", "n/a", or words ("Hopper"), with
// the unit beside it ("byte", "nsecond", "%", or scaled ones such as "Mbyte", "usecond",
// "cycle/usecond" unless --print-units base). Comparing two tools needs both in base units:
// times in nanoseconds, sizes in bytes, rates per second.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace gpuscope::ncu_csv {

struct MetricValue {
  std::string text;              // as printed
  std::string unit;              // as printed ("" when the tool printed none)
  std::optional<double> number;  // in base units; nullopt for "n/a" and words
};

// The number in `text` ("1,234.5", "-3", "4.0e-05", " 12 "), nullopt when it is not one.
// Thousands separators must group by three ("1,23" is not a number).
std::optional<double> ParseMetricNumber(std::string_view text);

// The factor that takes a value printed in `unit` to base units: "Mbyte" 1e6, "usecond"
// 1e3 (base: nanosecond), "byte/usecond" 1e6 (base: per second), "Ghz" 1e9. 1 for base and
// unknown units (a unit we do not know is left as printed).
double UnitScale(std::string_view unit);

// text + unit -> MetricValue with the number scaled to base units.
MetricValue MakeMetricValue(std::string text, std::string unit);

}  // namespace gpuscope::ncu_csv
