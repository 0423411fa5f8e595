#include "cli/output/step_timer.h"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "contract/environment_variables.h"

namespace gpuscope::cli {

StepTimer::StepTimer() {
  const char* debug = std::getenv(contract::kDebugVariable);
  enabled_ = debug != nullptr && std::string_view(debug) == "1";
}

void StepTimer::Lap(std::string_view step) {
  const auto now = std::chrono::steady_clock::now();
  if (enabled_) {
    std::fprintf(stderr, "==PROF== [debug] %s: %.1f ms\n", std::string(step).c_str(),
                 std::chrono::duration<double, std::milli>(now - last_).count());
  }
  last_ = now;
}

}  // namespace gpuscope::cli
