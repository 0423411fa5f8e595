// GPUSCOPE_DEBUG=1: where the time of `gpuscope profile` goes, step by step, on stderr
// ("==PROF== [debug] <step>: 12.3 ms"); the injection logs its own steps. Silent otherwise.
#pragma once

#include <chrono>
#include <string_view>

namespace gpuscope::cli {

class StepTimer {
 public:
  StepTimer();
  // The time since the previous Lap (or since construction), labelled `step`.
  void Lap(std::string_view step);

 private:
  bool enabled_;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace gpuscope::cli
