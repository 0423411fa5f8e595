// The one lock held while a child process is forked to run CUPTI's host library
// (isolated_evaluation, isolated_source_lines): no thread of this process is inside CUPTI when a
// child starts, so the child never inherits a CUPTI lock held by a thread it does not have.
#pragma once

#include <mutex>

namespace gpuscope::evaluate {

inline std::mutex& CuptiForkLock() {
  static std::mutex lock;
  return lock;
}

}  // namespace gpuscope::evaluate
