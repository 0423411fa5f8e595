#include "cupti/profiler/profile_progress.h"

#include <string>

#include "inject/log.h"
#include "util/demangle.h"

namespace gpuscope::cupti {
namespace {

// 'Profiling "saxpy" - 0: ', 'Profiling range "solver" - 0: '
std::string LinePrefix(const inject::OwnedProfiledKernel& kernel) {
  if (model::IsRangeResult(kernel.record.replay_mode)) {
    // A range's name is the program's text (spaces and all), not a signature to shorten.
    return "Profiling range \"" + kernel.mangled_name + "\" - " +
           std::to_string(kernel.record.profile_index) + ": ";
  }
  std::string name = FunctionBaseName(Demangle(kernel.mangled_name));
  return "Profiling \"" + name + "\" - " + std::to_string(kernel.record.profile_index) + ": ";
}

}  // namespace

void PrintProgressLine(const inject::OwnedProfiledKernel& kernel) {
  std::string line = LinePrefix(kernel);
  if (kernel.record.outcome == model::ProfileOutcome::kMeasured) {
    line += "0%....50%....100% - " + std::to_string(kernel.record.passes) + " passes";
  } else {
    line += "not measured: " + kernel.message;
  }
  inject::LogBanner(line);
}

void PrintReplayPassLine(const inject::OwnedProfiledKernel& kernel, std::uint32_t pass,
                         std::uint32_t passes) {
  inject::LogBanner(LinePrefix(kernel) + "pass " + std::to_string(pass) + " of " +
                    std::to_string(passes));
}

}  // namespace gpuscope::cupti
