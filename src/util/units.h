// How nvprof writes times, sizes and rates. Its users read these columns by eye and by
// script, so the rules are reproduced exactly:
//   times       auto unit so the number lies in [1, 1000): ns as integers ("704ns"), us and
//               ms with 5 significant digits ("9.3230us", "1.3800ms"), s with 6 ("7.21108s");
//   sizes       1024-based B, KB, MB, GB, TB; bytes as integers ("4B"), else 5 significant
//               digits ("256.00KB");
//   throughput  1024-based, 5 significant digits ("9.3842GB/s").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope {

enum class TimeUnit { kAuto, kSeconds, kMilliseconds, kMicroseconds, kNanoseconds };

// "auto", "s", "ms", "us", "ns" (nvprof's -u/--normalized-time-unit).
StatusOr<TimeUnit> ParseTimeUnit(std::string_view text);

// `nanoseconds` may be fractional (averages). With kAuto the unit is chosen per value;
// with a fixed unit every value is written in it with nanosecond resolution (ns: 0
// decimals, us: 3, ms: 6, s: 9), unit suffix kept ("0.165860000s").
std::string FormatTime(double nanoseconds, TimeUnit unit);

// The suffix of a fixed unit ("s", "ms", "us", "ns"); kAuto has none (empty).
std::string_view TimeUnitSuffix(TimeUnit unit);

// Nanoseconds in one unit, for CSV cells ("%f" like nvprof: 6 decimals, no suffix).
// CSV needs a single unit per column, so kAuto means microseconds there (what nvprof's
// CSV output uses).
TimeUnit CsvTimeUnit(TimeUnit requested);
std::string FormatCsvTime(double nanoseconds, TimeUnit unit);

std::string FormatBytes(std::uint64_t bytes);

// Bytes per second; "-" when the duration is zero (no rate can be given).
std::string FormatThroughput(std::uint64_t bytes, std::uint64_t duration_ns);

// `value` with `significant` significant digits, never in scientific notation; the
// number of integer digits counts after rounding (9.99996 -> "10.000" for 5 digits).
std::string FormatSignificant(double value, int significant);

}  // namespace gpuscope
