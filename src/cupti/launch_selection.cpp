#include "cupti/launch_selection.h"

#include <utility>

namespace gpuscope::cupti {

LaunchSelection::LaunchSelection(KernelFilterSpec spec)
    : needs_stream_(spec.kernel_id && spec.kernel_id->stream_id), selector_(std::move(spec)) {}

LaunchDecision LaunchSelection::Decide(const LaunchCandidate& launch) {
  std::lock_guard<std::mutex> lock(mutex_);
  LaunchDecision decision = selector_.Decide(launch);
  if (decision.profile) ++pending_;
  return decision;
}

bool LaunchSelection::FinishSelected() {
  std::lock_guard<std::mutex> lock(mutex_);
  return --pending_ == 0 && selector_.Exhausted();
}

int LaunchSelection::pending() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_;
}

}  // namespace gpuscope::cupti
