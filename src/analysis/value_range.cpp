#include "analysis/value_range.h"

#include <cmath>
#include <limits>

namespace gpuscope::analysis {

std::optional<ImpossibleValue> CheckMetricValue(double value, std::string_view unit) {
  if (!std::isfinite(value)) return ImpossibleValue::kNotFinite;
  if (unit == "%") {
    if (value < kLowestPercent || value > kHighestPercent) {
      return ImpossibleValue::kPercentOutOfRange;
    }
    return std::nullopt;
  }
  if (unit.empty()) return std::nullopt;
  if (value < 0) return ImpossibleValue::kNegative;
  const bool count_or_duration = unit.find('/') == std::string_view::npos;
  if (count_or_duration && value > kLargestCount) return ImpossibleValue::kCountTooLarge;
  return std::nullopt;
}

std::optional<ImpossibleValue> CheckStoredCount(std::uint64_t value) {
  if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
    return ImpossibleValue::kNegative;
  }
  // Compared as integers: 2^53 + 1 would round to 2^53 as a double.
  if (value > (std::uint64_t{1} << 53)) return ImpossibleValue::kCountTooLarge;
  return std::nullopt;
}

std::uint64_t ImpossibleValueCounts::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t count : counts_) sum += count;
  return sum;
}

ImpossibleValueCounts& ImpossibleValueCounts::operator+=(const ImpossibleValueCounts& other) {
  for (std::size_t kind = 0; kind < kImpossibleValueKinds; ++kind) {
    counts_[kind] += other.counts_[kind];
  }
  return *this;
}

std::optional<std::string> ImpossibleValueWarning(const ImpossibleValueCounts& counts,
                                                  CheckedValues values) {
  struct Wording {
    ImpossibleValue why;
    const char* one;   // after "1 "
    const char* many;  // after "N "
  };
  static constexpr Wording kWordings[] = {
      {ImpossibleValue::kPercentOutOfRange, "percentage outside -1% to 1000%",
       "percentages outside -1% to 1000%"},
      {ImpossibleValue::kNegative, "negative count, duration or rate",
       "negative counts, durations or rates"},
      {ImpossibleValue::kCountTooLarge, "count or duration above 2^53",
       "counts or durations above 2^53"},
      {ImpossibleValue::kNotFinite, "value that is not a finite number",
       "values that are not finite numbers"},
  };
  const std::uint64_t total = counts.total();
  if (total == 0) return std::nullopt;
  std::string why;
  for (const Wording& wording : kWordings) {
    const std::uint64_t count = counts.count(wording.why);
    if (count == 0) continue;
    why += (why.empty() ? "" : ", ") + std::to_string(count) + " " +
           (count == 1 ? wording.one : wording.many);
  }
  const char* what = "";
  switch (values) {
    case CheckedValues::kProfiledKernelMetrics:
      what =
          total == 1 ? " metric value of profiled kernels" : " metric values of profiled kernels";
      break;
    case CheckedValues::kGpuMetricSamples:
      what = total == 1 ? " GPU metric sample value" : " GPU metric sample values";
      break;
    case CheckedValues::kSourceCounters:
      what = total == 1 ? " source counter value" : " source counter values";
      break;
  }
  return std::to_string(total) + what + " cannot be true (" + why + "): left out";
}

}  // namespace gpuscope::analysis
