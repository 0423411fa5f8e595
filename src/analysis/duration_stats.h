// Statistics over durations (or sizes): the running kind nvprof's summary needs (count,
// total, min, max) and the full kind nsys's tables need (median and standard deviation,
// which need every sample).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "model/records.h"

namespace gpuscope::analysis {

// CUPTI reports 0/0 for an activity it could not time, and a corrupt report may hold an
// end before its start: neither has a duration, and both are counted, not summed.
inline bool HasTimestamps(model::Timestamp start, model::Timestamp end) {
  return start != 0 && end != 0 && end >= start;
}

struct RunningStats {
  std::uint64_t count = 0;
  std::uint64_t total = 0;
  std::uint64_t min = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t max = 0;

  void Add(std::uint64_t value) {
    ++count;
    total += value;
    if (value < min) min = value;
    if (value > max) max = value;
  }
  double mean() const { return count == 0 ? 0 : static_cast<double>(total) / count; }
};

struct SampleStats {
  std::uint64_t count = 0;
  std::uint64_t total = 0;
  double mean = 0;
  double median = 0;  // mean of the two middle values for an even count
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  double stddev = 0;  // sample standard deviation (n - 1); 0 for a single sample
};

// Reorders `samples` (nth_element: linear time, no full sort). Empty input gives zeros.
SampleStats ComputeSampleStats(std::vector<std::uint64_t>& samples);

}  // namespace gpuscope::analysis
