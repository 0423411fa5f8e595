#include "inject/nvtx_start_end_ids.h"

namespace gpuscope::inject {

void NvtxStartEndIds::Add(std::uint32_t marker_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  ids_.insert(marker_id);
}

bool NvtxStartEndIds::Take(std::uint32_t marker_id) {
  std::lock_guard<std::mutex> lock(mutex_);
  return ids_.erase(marker_id) != 0;
}

std::size_t NvtxStartEndIds::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return ids_.size();
}

NvtxStartEndIds& ProcessNvtxStartEndIds() {
  static auto* ids = new NvtxStartEndIds();
  return *ids;
}

}  // namespace gpuscope::inject
