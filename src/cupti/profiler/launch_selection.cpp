#include "cupti/profiler/launch_selection.h"

#include <utility>

#include "util/nccl_kernels.h"

namespace gpuscope::cupti {

std::string_view ReplayRefusal(std::string_view mangled_name, model::ReplayMode mode) {
  if (mode != model::ReplayMode::kKernel || !IsNcclKernel(mangled_name)) return {};
  return "an NCCL collective is not measured in kernel replay: replaying it alone would "
         "deadlock (the other ranks take no part in the replay), so it ran unmeasured; "
         "measure it with --replay-mode application (every rank under gpuscope profile) or "
         "a range replay of the whole step on all ranks";
}

LaunchSelection::LaunchSelection(KernelFilterSpec spec, model::ReplayMode mode)
    : needs_stream_(spec.kernel_id && spec.kernel_id->stream_id),
      mode_(mode),
      selector_(std::move(spec)) {}

SelectedLaunch LaunchSelection::Decide(const LaunchCandidate& launch) {
  std::lock_guard<std::mutex> lock(mutex_);
  SelectedLaunch decision;
  static_cast<LaunchDecision&>(decision) = selector_.Decide(launch);
  if (!decision.profile) return decision;
  ++pending_;
  decision.refusal = ReplayRefusal(launch.mangled_name, mode_);
  if (!decision.refusal.empty()) {
    decision.say_refusal = !refused_before_;
    refused_before_ = true;
  }
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
