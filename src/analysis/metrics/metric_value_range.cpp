#include "analysis/metrics/metric_value_range.h"

#include <cmath>

namespace gpuscope::analysis::metrics {

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

std::optional<std::string> ImpossibleValueWarning(const ImpossibleValueCounts& counts) {
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
  return std::to_string(total) + (total == 1 ? " metric value" : " metric values") +
         " of profiled kernels cannot be true (" + why + "): left out";
}

}  // namespace gpuscope::analysis::metrics
