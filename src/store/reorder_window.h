// Turns rows read in insertion order into rows in (start, insertion) order, given a bound
// on how far out of order they are (row_order.max_lateness_ns, see start_order_tracker.h).
//
// A row can be emitted once no later row can start before it: every later row starts at or
// after (latest start seen so far - max lateness). So the window holds only the rows of the
// last `max lateness` nanoseconds, in a min-heap; with a bound of 0 (rows already in order)
// rows pass straight through. Memory is reused between rows: no per-row allocation once the
// heap has grown to the window's size. The caller watches held() against a memory limit.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace gpuscope::store {

template <typename Row>
class ReorderWindow {
 public:
  explicit ReorderWindow(std::int64_t max_lateness) : max_lateness_(max_lateness) {}

  // False when `start` breaks the bound: the report's bookkeeping does not match its rows.
  bool Fits(std::int64_t start) const { return start >= Threshold(); }

  // Adds a row (which must Fit) and emits every row that is now certain to come next.
  // `sequence` increases from row to row (the rowid): it orders rows with equal starts.
  // Returns false when `emit` returned false (the caller stops).
  template <typename Emit>
  bool Push(std::int64_t start, std::int64_t sequence, Row&& row, Emit& emit) {
    if (start > latest_) latest_ = start;
    if (heap_.empty() && start <= Threshold()) {  // in order: pass straight through
      Emitted(start, sequence);
      return emit(row);
    }
    heap_.push_back(Item{start, sequence, std::move(row)});
    std::push_heap(heap_.begin(), heap_.end(), Later);
    std::int64_t threshold = Threshold();
    while (!heap_.empty() && heap_.front().start <= threshold) {
      if (!PopInto(emit)) return false;
    }
    return true;
  }

  // Emits what is left, at the end of the rows.
  template <typename Emit>
  bool Drain(Emit& emit) {
    while (!heap_.empty()) {
      if (!PopInto(emit)) return false;
    }
    return true;
  }

  // Rows waiting in the window.
  std::size_t held() const { return heap_.size(); }
  // The (start, sequence) of the last row emitted; every row not emitted yet sorts after it.
  bool emitted_any() const { return emitted_any_; }
  std::int64_t last_start() const { return last_start_; }
  std::int64_t last_sequence() const { return last_sequence_; }

 private:
  struct Item {
    std::int64_t start;
    std::int64_t sequence;  // insertion order breaks ties, as ORDER BY start, id would
    Row row;
  };
  static bool Later(const Item& a, const Item& b) {
    return a.start != b.start ? a.start > b.start : a.sequence > b.sequence;
  }

  std::int64_t Threshold() const {
    std::int64_t threshold;
    if (__builtin_sub_overflow(latest_, max_lateness_, &threshold)) {
      return std::numeric_limits<std::int64_t>::min();
    }
    return threshold;
  }

  void Emitted(std::int64_t start, std::int64_t sequence) {
    emitted_any_ = true;
    last_start_ = start;
    last_sequence_ = sequence;
  }

  template <typename Emit>
  bool PopInto(Emit& emit) {
    std::pop_heap(heap_.begin(), heap_.end(), Later);
    Emitted(heap_.back().start, heap_.back().sequence);
    bool go_on = emit(heap_.back().row);
    heap_.pop_back();
    return go_on;
  }

  std::int64_t max_lateness_;
  std::int64_t latest_ = std::numeric_limits<std::int64_t>::min();
  bool emitted_any_ = false;
  std::int64_t last_start_ = 0;
  std::int64_t last_sequence_ = 0;
  std::vector<Item> heap_;
};

}  // namespace gpuscope::store
