#include "cupti/profiler/context_range_profiler.h"

#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <stdexcept>
#include <utility>

#include "cupti/common/cupti_error.h"
#include "cupti/common/cupti_params.h"
#include "cupti/common/elapsed_time.h"
#include "inject/log.h"

namespace gpuscope::cupti {

void ContextRangeProfiler::Prepare() {
  const SteadyClock::time_point started = SteadyClock::now();
  if (!setup_.profiler_initialized()) {
    if (CUptiResult r = setup_.InitializeProfiler(); r != CUPTI_SUCCESS) {
      failure_ = FailureOf(r, "cuptiProfilerInitialize");
      return;
    }
    inject::LogDebug("cuptiProfilerInitialize: " + Elapsed(started));
  }

  if (std::string reason = UnsupportedDeviceReason(device_id_); !reason.empty()) {
    failure_ = {reason, model::ProfileOutcome::kCountersUnavailable};
    return;
  }
  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device_id_;
  if (CUptiResult r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS || !chip.pChipName) {
    failure_ = FailureOf(r, "cuptiDeviceGetChipName");
    return;
  }
  chip_ = chip.pChipName;
  // The counters' availability is where a permission problem shows first (notes 6.1).
  auto availability = Params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = context_;
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&availability); r != CUPTI_SUCCESS) {
    failure_ = FailureOf(r, "cuptiProfilerGetCounterAvailability");
    return;
  }
  inject::LogDebug("device checks and counter availability: " + Elapsed(started));
  const ChipConfig& config = setup_.ConfigFor(chip_);
  if (!config.status.ok()) {
    failure_.message = "cannot configure the metrics for " + chip_ + ": " + config.status.message();
    return;
  }
  passes_ = config.image.passes;
  config_image_ = &config.image;
  inject::LogDebug("profiling on device " + std::to_string(device_id_) + " (" + chip_ + ", " +
                   std::to_string(passes_) + " passes) ready after " + Elapsed(started));
}

void ContextRangeProfiler::FailForGood(ProfileFailure failure) {
  Disable();
  failure_ = std::move(failure);
}

// The range profiler is enabled at the first measurement of a context and disabled once no
// launch can be selected any more (--launch-count reached): while it is enabled, CUPTI slows
// every launch of the context, selected or not (~15 us per small launch on the H200). It is
// never enabled twice: cuptiRangeProfilerEnable after a Disable on the same context crashed
// CUPTI 2025.3.1 in the next SetConfig (H200, 2026-11-21).
CUptiResult ContextRangeProfiler::Enable(std::string& what) {
  if (object_ != nullptr) return CUPTI_SUCCESS;
  if (disabled_) {
    what =
        "re-enabling the range profiler of this context (disabled after the last selected "
        "launch)";
    return CUPTI_ERROR_INVALID_OPERATION;
  }
  auto enable =
      Params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = context_;
  what = "cuptiRangeProfilerEnable";
  if (CUptiResult r = cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS) return r;
  object_ = enable.pRangeProfilerObject;
  if (!counter_data_.empty()) return CUPTI_SUCCESS;
  auto size = Params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = object_;
  size.pMetricNames = setup_.metric_names().data();
  size.numMetrics = setup_.metric_names().size();
  size.maxNumOfRanges = 1;  // one launch per image: decoded and stored after each launch
  size.maxNumRangeTreeNodes = 1;
  what = "cuptiRangeProfilerGetCounterDataSize";
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&size); r != CUPTI_SUCCESS) return r;
  counter_data_.assign(size.counterDataSize, 0);
  inject::LogDebug("counter data: " + std::to_string(size.counterDataSize) + " bytes per kernel");
  return CUPTI_SUCCESS;
}

void ContextRangeProfiler::Disable() {
  if (object_ == nullptr) return;
  auto disable =
      Params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  disable.pRangeProfilerObject = object_;
  if (CUptiResult r = cuptiRangeProfilerDisable(&disable); r != CUPTI_SUCCESS) {
    inject::LogDebug("cuptiRangeProfilerDisable: " + CuptiResultName(r));
  }
  object_ = nullptr;
  disabled_ = true;
}

// Application replay: the pass of this run continues the image the previous run left.
CUptiResult ContextRangeProfiler::BeginMeasurement(const inject::OwnedProfiledKernel& kernel,
                                                   std::string& what, std::string& failure,
                                                   const char* range_name) {
  // Only a Prepare() cut short by an exception leaves a usable-looking context without an
  // image; the launch callback's catch records the launch as failed.
  if (config_image_ == nullptr) throw std::logic_error("the context was not prepared");
  const SteadyClock::time_point started = SteadyClock::now();
  if (CUptiResult r = Enable(what); r != CUPTI_SUCCESS) return r;
  inject::LogDebug("range profiler enabled: " + Elapsed(started));
  const inject::ProfileConfig& config = setup_.config();
  inject::AppReplayStep step;
  if (setup_.application_replay() && config.app_pass > 0) {
    Status loaded =
        inject::AppReplayStore(config.app_dir)
            .Load(kernel.record.profile_index, kernel.mangled_name, counter_data_, step);
    if (!loaded.ok()) {
      failure = loaded.message();
      return CUPTI_SUCCESS;
    }
  }
  const bool fresh_image = !setup_.application_replay() || config.app_pass == 0;
  if (fresh_image) {
    if (CUptiResult r = ResetImage(what); r != CUPTI_SUCCESS) return r;
  }
  what = "cuptiRangeProfilerSetConfig";
  if (CUptiResult r = Configure(setup_.application_replay() ? CUPTI_ApplicationReplay
                                                            : CUPTI_KernelReplay,
                                step, range_name != nullptr ? CUPTI_UserRange : CUPTI_AutoRange);
      r != CUPTI_SUCCESS) {
    return r;
  }
  auto start =
      Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = object_;
  what = "cuptiRangeProfilerStart";
  CUptiResult result = cuptiRangeProfilerStart(&start);
  inject::LogDebug("configured and started: " + Elapsed(started));
  if (result != CUPTI_SUCCESS || range_name == nullptr) return result;
  auto push = Params<CUpti_RangeProfiler_PushRange_Params>(
      CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE);
  push.pRangeProfilerObject = object_;
  push.pRangeName = range_name;
  what = "cuptiRangeProfilerPushRange";
  result = cuptiRangeProfilerPushRange(&push);
  if (result != CUPTI_SUCCESS) StopAfterFailure();  // Start without a range must not stay
  return result;
}

CUptiResult ContextRangeProfiler::ResetImage(std::string& what) {
  auto init = Params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = object_;
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  what = "cuptiRangeProfilerCounterDataImageInitialize";
  return cuptiRangeProfilerCounterDataImageInitialize(&init);
}

// Auto range (one range: the launch, timed as the kernel alone), or a user range (app-range:
// one range, all the work between its push and pop, one nesting level), in the given replay
// mode, starting at `step` (application replay continues the previous run's pass).
CUptiResult ContextRangeProfiler::Configure(CUpti_ProfilerReplayMode replay_mode,
                                            const inject::AppReplayStep& step,
                                            CUpti_ProfilerRange range) {
  auto set = Params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = object_;
  set.configSize = config_image_->bytes.size();
  set.pConfig = config_image_->bytes.data();
  set.counterDataImageSize = counter_data_.size();
  set.pCounterDataImage = counter_data_.data();
  set.range = range;
  set.replayMode = replay_mode;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = step.pass_index;
  set.targetNestingLevel = step.target_nesting_level;
  inject::LogDebug("set config: pass index " + std::to_string(step.pass_index) +
                   ", nesting level " + std::to_string(step.target_nesting_level));
  return cuptiRangeProfilerSetConfig(&set);
}

CUptiResult ContextRangeProfiler::BeginOwnReplay(std::string& what) {
  if (config_image_ == nullptr) throw std::logic_error("the context was not prepared");
  if (CUptiResult r = Enable(what); r != CUPTI_SUCCESS) return r;
  if (CUptiResult r = ResetImage(what); r != CUPTI_SUCCESS) return r;
  what = "cuptiRangeProfilerSetConfig (user replay)";
  return Configure(CUPTI_UserReplay, inject::AppReplayStep{});
}

CUptiResult ContextRangeProfiler::RunPass(const std::function<Status()>& launch,
                                          std::string& what, bool& all_passes_submitted,
                                          Status& launched) {
  auto start =
      Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = object_;
  what = "cuptiRangeProfilerStart";
  if (CUptiResult r = cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS) return r;
  launched = launch();
  auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = object_;
  what = "cuptiRangeProfilerStop";
  CUptiResult r = cuptiRangeProfilerStop(&stop);
  all_passes_submitted = stop.isAllPassSubmitted != 0;
  return r;
}

CUptiResult ContextRangeProfiler::FinishOwnReplay(std::string& what, StopResult& stopped) {
  stopped.all_passes_submitted = true;
  return Decode(what, stopped);
}

CUptiResult ContextRangeProfiler::Decode(std::string& what, StopResult& stopped) {
  auto decode = Params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = object_;
  what = "cuptiRangeProfilerDecodeData";
  CUptiResult r = cuptiRangeProfilerDecodeData(&decode);
  stopped.dropped = decode.numOfRangeDropped;
  return r;
}

CUptiResult ContextRangeProfiler::EndMeasurement(std::string& what, StopResult& stopped,
                                                 bool pop_range) {
  const SteadyClock::time_point started = SteadyClock::now();
  if (pop_range) {
    auto pop = Params<CUpti_RangeProfiler_PopRange_Params>(
        CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE);
    pop.pRangeProfilerObject = object_;
    what = "cuptiRangeProfilerPopRange";
    if (CUptiResult r = cuptiRangeProfilerPopRange(&pop); r != CUPTI_SUCCESS) {
      StopAfterFailure();
      return r;
    }
  }
  auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = object_;
  what = "cuptiRangeProfilerStop";
  if (CUptiResult r = cuptiRangeProfilerStop(&stop); r != CUPTI_SUCCESS) return r;
  stopped.all_passes_submitted = stop.isAllPassSubmitted != 0;
  inject::LogDebug("stop: pass index " + std::to_string(stop.passIndex) + ", nesting level " +
                   std::to_string(stop.targetNestingLevel) + ", all passes submitted " +
                   std::to_string(stop.isAllPassSubmitted));
  stopped.next.pass_index = stop.passIndex;
  stopped.next.target_nesting_level = static_cast<std::uint16_t>(stop.targetNestingLevel);
  inject::LogDebug("stopped: " + Elapsed(started));
  CUptiResult r = Decode(what, stopped);
  inject::LogDebug("decoded: " + Elapsed(started));
  return r;
}

void ContextRangeProfiler::StopAfterFailure() {
  if (object_ == nullptr) return;
  auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = object_;
  cuptiRangeProfilerStop(&stop);
}

}  // namespace gpuscope::cupti
