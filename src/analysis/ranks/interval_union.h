// The length of a union of time intervals that arrive in start order, kept as they come:
// one open interval and a running total, whatever the number of intervals.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpuscope::analysis::ranks {

class IntervalUnion {
 public:
  // Adds [start, end) (start no earlier than any interval added before) and returns the gap
  // it closes: the time between the end of everything so far and `start` (0 when it
  // overlaps or touches what came before, or is the first).
  std::uint64_t Add(std::int64_t start, std::int64_t end) {
    end = std::max(end, start);
    if (!seen_) {
      seen_ = true;
      first_start_ = start;
      open_start_ = start;
      open_end_ = end;
      return 0;
    }
    if (start > open_end_) {
      std::uint64_t gap = static_cast<std::uint64_t>(start - open_end_);
      closed_ += static_cast<std::uint64_t>(open_end_ - open_start_);
      open_start_ = start;
      open_end_ = end;
      return gap;
    }
    open_end_ = std::max(open_end_, end);
    return 0;
  }
  bool empty() const { return !seen_; }
  // The end of everything added so far (the end of the open interval).
  std::int64_t end() const { return open_end_; }
  std::int64_t first_start() const { return first_start_; }
  // |union| so far.
  std::uint64_t length() const {
    return seen_ ? closed_ + static_cast<std::uint64_t>(open_end_ - open_start_) : 0;
  }

 private:
  bool seen_ = false;
  std::int64_t first_start_ = 0;
  std::int64_t open_start_ = 0;
  std::int64_t open_end_ = 0;
  std::uint64_t closed_ = 0;
};

}  // namespace gpuscope::analysis::ranks
