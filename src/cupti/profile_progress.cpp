#include "cupti/profile_progress.h"

#include <string>

#include "inject/log.h"
#include "util/demangle.h"

namespace gpuscope::inject::cupti {
namespace {

// 'Profiling "saxpy" - 0: '
std::string LinePrefix(const OwnedProfiledKernel& kernel) {
  std::string name = FunctionBaseName(Demangle(kernel.mangled_name));
  return "Profiling \"" + name + "\" - " + std::to_string(kernel.record.profile_index) + ": ";
}

}  // namespace

void PrintProgressLine(const OwnedProfiledKernel& kernel) {
  std::string line = LinePrefix(kernel);
  if (kernel.record.outcome == model::ProfileOutcome::kMeasured) {
    line += "0%....50%....100% - " + std::to_string(kernel.record.passes) + " passes";
  } else {
    line += "not measured: " + kernel.message;
  }
  LogBanner(line);
}

void PrintReplayPassLine(const OwnedProfiledKernel& kernel, std::uint32_t pass,
                         std::uint32_t passes) {
  LogBanner(LinePrefix(kernel) + "pass " + std::to_string(pass) + " of " + std::to_string(passes));
}

}  // namespace gpuscope::inject::cupti
