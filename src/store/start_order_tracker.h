// Measures how far rows arrive out of start order, as the writer inserts them.
//
// CUPTI delivers records per buffer and per thread, so rows are mostly but not strictly in
// start order (a runtime call's record also follows the driver calls made inside it). The
// writer records, per table, the largest "lateness": how far a row starts before the latest
// start inserted before it. A reader scanning in insertion order knows that no later row
// can start before (latest start so far - max lateness), so it can emit rows in exact start
// order holding only that window in memory (see ordered_scan.h), with no sort and no index.
#pragma once

#include <cstdint>
#include <limits>

namespace gpuscope::store {

class StartOrderTracker {
 public:
  // `start` is the stored (relative) start; untimed rows (NULL start) are counted apart:
  // readers emit them first, as ORDER BY start would.
  void Add(bool timed, std::int64_t start) {
    if (!timed) {
      ++untimed_rows_;
      return;
    }
    if (start >= latest_start_) {
      latest_start_ = start;
      return;
    }
    // Unsigned difference: exact even for absurd timestamps far apart, then saturated.
    std::uint64_t late =
        static_cast<std::uint64_t>(latest_start_) - static_cast<std::uint64_t>(start);
    constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    std::int64_t lateness = static_cast<std::int64_t>(late > kMax ? kMax : late);
    if (lateness > max_lateness_) max_lateness_ = lateness;
  }

  std::int64_t max_lateness() const { return max_lateness_; }
  std::uint64_t untimed_rows() const { return untimed_rows_; }

 private:
  std::int64_t latest_start_ = std::numeric_limits<std::int64_t>::min();
  std::int64_t max_lateness_ = 0;
  std::uint64_t untimed_rows_ = 0;
};

}  // namespace gpuscope::store
