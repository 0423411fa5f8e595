// `--replay-mode application`: the program runs once per replay pass, and each selected launch
// (matched by its profile index, i.e. launch order among the selected ones, and its name)
// adds one pass to a counter-data image that must survive from one run to the next. This is
// that image's home between runs: <dir>/<profile index>.counterdata plus a small state file
// with CUPTI's pass index and nesting level for the next run and the kernel's name.
// CUPTI-free; the kernel profiler does the CUPTI side.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "util/status.h"

namespace gpuscope::inject {

struct AppReplayStep {
  std::string kernel_name;     // mangled: the launch of the next run must have the same one
  std::size_t pass_index = 0;  // what cuptiRangeProfilerStop returned, for the next SetConfig
  std::uint16_t target_nesting_level = 1;
};

class AppReplayStore {
 public:
  explicit AppReplayStore(std::string directory) : directory_(std::move(directory)) {}

  Status Save(std::uint32_t profile_index, const AppReplayStep& step,
              const std::vector<std::uint8_t>& counter_data) const;

  // The step and image the previous run left for this launch; an error when there is none
  // or it does not fit (another kernel, another image size).
  Status Load(std::uint32_t profile_index, const std::string& kernel_name,
              std::vector<std::uint8_t>& counter_data, AppReplayStep& step) const;

 private:
  std::string PathOf(std::uint32_t profile_index, const char* extension) const;
  std::string directory_;
};

}  // namespace gpuscope::inject
