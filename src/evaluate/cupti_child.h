// CUPTI's host library run in a forked child on data from a report (counter-data images,
// cubins): the library does not check what it is given, and a damaged input that crashes it
// must cost that input only, not the command. One child at a time, under one lock, so that no
// thread of this process is inside CUPTI when a child starts (the child would inherit a lock
// held by a thread it does not have).
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "util/status.h"

namespace gpuscope::evaluate {

struct ChildAnswer {
  enum class Ending { kAnswered, kTimedOut, kCrashed } ending = Ending::kAnswered;
  int signal = 0;     // kCrashed: the signal that ended the child
  std::string bytes;  // kAnswered: what `work` returned
};

// Runs `work` in a child process and returns its bytes, or how the child ended; errors are
// those of making the child (pipe, fork), prefixed with `what` ("cannot evaluate ...").
StatusOr<ChildAnswer> RunInCuptiChild(const std::function<std::string()>& work,
                                      std::chrono::milliseconds limit, const std::string& what);

}  // namespace gpuscope::evaluate
