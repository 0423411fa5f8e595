// How Nsight Compute writes metric values and units, so that our pages read like its own:
//   scaling   a value is shown in the smallest unit in which it prints below 1,000 (after
//             rounding to two decimals): 61,728 ns -> "61.73 us", 1.98e9 cycle/s -> "1.98 Ghz",
//             1,984 byte -> "1.98 Kbyte" (1000-based, like ncu), 3.32e12 byte/s ->
//             "3.32 Tbyte/s". Counts, cycles, percentages and ratios are never scaled.
//   numbers   integral values without decimals, others with two; the text page groups
//             thousands ("8,372", "6,232.84"), the CSV does not ("8372", "6232.84").
//   durations "us" on the text page (ncu 2025's spelling), "usecond" in the CSV.
#pragma once

#include <string>
#include <string_view>

#include "analysis/metrics/section_catalog.h"

namespace gpuscope::analysis::metrics {

struct ScaledValue {
  double value = 0;
  double divisor = 1;     // value = base value / divisor
  std::string text_unit;  // "us", "Ghz", "Kbyte/block", "%"
  std::string csv_unit;   // "usecond", "Ghz", "Kbyte/block", "%"
};

// `value` is in the kind's base unit (ns, cycles/s, bytes, bytes/s, flop/s). For kFixed
// the value is kept and both units are `unit`; for the scaled kinds `unit` is a suffix.
ScaledValue ScaleValue(UnitKind kind, std::string_view unit, double value);

// Two decimals unless the value is integral (after rounding); `group_thousands` inserts
// ncu's commas. Not-a-number and infinities print as "n/a".
std::string FormatMetricNumber(double value, bool group_thousands);

// Unscaled, plain decimal, as many digits as it takes to read the same double back
// ("61728", "1980000000", "0.3125"): the raw CSV, which scripts compare with tolerance.
std::string FormatRawNumber(double value);

}  // namespace gpuscope::analysis::metrics
