#include "analysis/duration_stats.h"

#include <algorithm>
#include <cmath>

namespace gpuscope::analysis {

SampleStats ComputeSampleStats(std::vector<std::uint64_t>& samples) {
  SampleStats stats;
  if (samples.empty()) return stats;
  stats.count = samples.size();
  auto [min, max] = std::minmax_element(samples.begin(), samples.end());
  stats.min = *min;
  stats.max = *max;
  // Sum in integers (exact), then two passes for the deviation: one-pass formulas lose
  // precision when durations are large and close together.
  for (std::uint64_t value : samples) stats.total += value;
  stats.mean = static_cast<double>(stats.total) / static_cast<double>(stats.count);
  if (stats.count > 1) {
    double squares = 0;
    for (std::uint64_t value : samples) {
      double delta = static_cast<double>(value) - stats.mean;
      squares += delta * delta;
    }
    stats.stddev = std::sqrt(squares / static_cast<double>(stats.count - 1));
  }
  auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
  std::nth_element(samples.begin(), middle, samples.end());
  double upper = static_cast<double>(*middle);
  if (samples.size() % 2 == 1) {
    stats.median = upper;
  } else {
    // After nth_element everything before `middle` is <= it: the lower middle value is
    // the largest of that half.
    double lower = static_cast<double>(*std::max_element(samples.begin(), middle));
    stats.median = (lower + upper) / 2;
  }
  return stats;
}

}  // namespace gpuscope::analysis
