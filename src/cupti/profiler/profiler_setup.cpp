#include "cupti/profiler/profiler_setup.h"

#include <cupti_profiler_target.h>

#include <memory>
#include <utility>

#include "cupti/common/cupti_params.h"
#include "cupti/common/elapsed_time.h"
#include "inject/log.h"

namespace gpuscope::cupti {

ProfilerSetup::ProfilerSetup(const inject::ProfileConfig& config) : config_(config) {
  for (const std::string& name : config_.metrics) metric_names_.push_back(name.c_str());
}

CUptiResult ProfilerSetup::InitializeProfiler() {
  auto init =
      Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  CUptiResult r = cuptiProfilerInitialize(&init);
  if (r == CUPTI_SUCCESS) profiler_initialized_ = true;
  return r;
}

const ChipConfig& ProfilerSetup::ConfigFor(const std::string& chip) {
  auto it = chip_configs_.find(chip);
  if (it != chip_configs_.end()) return it->second;
  ChipConfig config;
  // The CLI built the image for the chip it checked the names on: reading it costs nothing,
  // building it again here would cost hundreds of milliseconds inside the program's launch.
  if (chip == config_.config_image_chip && !config_.prebuilt_config.empty()) {
    config.image.bytes = config_.prebuilt_config;
    config.image.passes = config_.config_image_passes;
    return chip_configs_.emplace(chip, std::move(config)).first->second;
  }
  const SteadyClock::time_point started = SteadyClock::now();
  StatusOr<std::unique_ptr<cupti::host::MetricHost>> host = cupti::host::MetricHost::Open(chip);
  if (!host.ok()) {
    config.status = host.status();
  } else {
    StatusOr<cupti::host::ConfigImage> image = (*host)->MakeConfig(config_.metrics);
    if (image.ok()) {
      config.image = std::move(*image);
    } else {
      config.status = image.status();
    }
  }
  inject::LogDebug("config image for " + chip + " built in " + Elapsed(started));
  return chip_configs_.emplace(chip, std::move(config)).first->second;
}

}  // namespace gpuscope::cupti
