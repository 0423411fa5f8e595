// What the range profilers of all contexts share: the profile configuration, the metric
// names CUPTI sizes counter data for, cuptiProfilerInitialize (once per process) and the
// config image of each chip. Not thread-safe: used under the kernel profiler's lock.
#pragma once

#include <cupti.h>

#include <map>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"
#include "inject/config.h"
#include "util/status.h"

namespace gpuscope::cupti {

// A chip's config image, or why there is none.
struct ChipConfig {
  Status status;
  cupti::host::ConfigImage image;
};

class ProfilerSetup {
 public:
  // Keeps a reference: `config` outlives this object.
  explicit ProfilerSetup(const inject::ProfileConfig& config);
  ProfilerSetup(const ProfilerSetup&) = delete;
  ProfilerSetup& operator=(const ProfilerSetup&) = delete;

  const inject::ProfileConfig& config() const { return config_; }
  // --replay-mode application or app-range: one pass per run of the program.
  bool application_replay() const {
    return config_.replay_mode == model::ReplayMode::kApplication ||
           config_.replay_mode == model::ReplayMode::kAppRange;
  }
  // Views into config().metrics, for CUPTI (which takes them as a non-const array).
  std::vector<const char*>& metric_names() { return metric_names_; }

  // cuptiProfilerInitialize waits for the first selected launch: the profiler starts inside
  // cuInit, where it fails (CUPTI_ERROR_UNKNOWN on the H200).
  bool profiler_initialized() const { return profiler_initialized_; }
  CUptiResult InitializeProfiler();

  // The config image for `chip`, made once per chip (the host API is slow to build one:
  // tens of ms). The reference stays valid as long as this object.
  const ChipConfig& ConfigFor(const std::string& chip);

 private:
  const inject::ProfileConfig& config_;
  std::vector<const char*> metric_names_;
  bool profiler_initialized_ = false;
  std::map<std::string, ChipConfig> chip_configs_;  // never erased from
};

}  // namespace gpuscope::cupti
