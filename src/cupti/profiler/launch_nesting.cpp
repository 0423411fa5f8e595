#include "cupti/profiler/launch_nesting.h"

namespace gpuscope::cupti {

bool LaunchNesting::Enter(std::uint32_t correlation_id) {
  if (++depth_ == 1) {
    decided_ = false;
    outer_correlation_id_ = correlation_id;
  }
  return !decided_;
}

void LaunchNesting::Decide(bool decided, bool measuring) {
  decided_ = decided;
  if (measuring) measure_depth_ = depth_;
}

void LaunchNesting::Exit() {
  if (--depth_ == 0) {
    decided_ = false;
    outer_correlation_id_ = 0;
  }
}

}  // namespace gpuscope::cupti
