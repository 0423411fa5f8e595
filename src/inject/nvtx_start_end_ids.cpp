#include "inject/nvtx_start_end_ids.h"

#include <algorithm>

namespace gpuscope::inject {

void NvtxStartEndIds::Add(std::uint32_t marker_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!ids_.insert(marker_id).second) return;
  order_.push_back(marker_id);
  // Forget the oldest ids still held beyond the capacity; ids already taken that reach the
  // front are dropped from the order on the way.
  while (!order_.empty() && (ids_.size() > capacity_ || ids_.count(order_.front()) == 0)) {
    if (ids_.erase(order_.front()) != 0) ++evicted_;
    order_.pop_front();
  }
  // A long-open range at the front keeps taken ids behind it: compact now and then, so the
  // order stays within twice the capacity (amortised O(1) per id).
  if (order_.size() > 2 * capacity_ + 16) {
    order_.erase(std::remove_if(order_.begin(), order_.end(),
                                [this](std::uint32_t id) { return ids_.count(id) == 0; }),
                 order_.end());
  }
}

bool NvtxStartEndIds::Take(std::uint32_t marker_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return ids_.erase(marker_id) != 0;
}

std::size_t NvtxStartEndIds::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ids_.size();
}

std::uint64_t NvtxStartEndIds::evicted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return evicted_;
}

NvtxStartEndIds& ProcessNvtxStartEndIds() {
  static auto* ids = new NvtxStartEndIds();
  return *ids;
}

}  // namespace gpuscope::inject
