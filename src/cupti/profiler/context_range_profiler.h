// CUPTI's Range Profiler on one context: the profiler objects of one CUcontext, set up at
// the context's first selected launch, then used for each selected launch of it (auto range,
// kernel replay: CUPTI saves device memory, replays the kernel once per pass and restores
// memory between passes; application replay: one pass per run of the program).
//
//   Prepare (once)      cuptiProfilerInitialize (once per process), the device's support,
//                       its chip, the counters' availability, the chip's config image
//   BeginMeasurement    enable the range profiler (first measurement), size the counter data
//                       for one range; reset the image, SetConfig, Start
//   EndMeasurement      Stop, DecodeData: counter_data() holds the launch's one range
//   Disable             once no selected launch is pending or can come, or the context goes
//
// Not thread-safe: used under the kernel profiler's lock, which serialises measurements
// (CUPTI replays one kernel at a time).
#pragma once

#include <cupti.h>
#include <cupti_range_profiler.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cupti/common/counter_access.h"
#include "cupti/profiler/profiler_setup.h"
#include "inject/app_replay_store.h"
#include "inject/profiled_kernel.h"
#include "util/status.h"

namespace gpuscope::cupti {

// After the launch: what Stop and DecodeData told. `dropped` tells a launch CUPTI kept no
// range for.
struct StopResult {
  std::size_t dropped = 0;
  bool all_passes_submitted = false;
  inject::AppReplayStep next;  // application replay: what the next run continues with
};

class ContextRangeProfiler {
 public:
  // `setup` outlives this object.
  ContextRangeProfiler(ProfilerSetup& setup, CUcontext context, std::uint32_t device_id)
      : setup_(setup), context_(context), device_id_(device_id) {}
  ContextRangeProfiler(const ContextRangeProfiler&) = delete;
  ContextRangeProfiler& operator=(const ContextRangeProfiler&) = delete;

  // Everything done once per context; a failure is kept in failure().
  void Prepare();

  // Empty while usable; else why this context's launches cannot be measured (for good).
  const ProfileFailure& failure() const { return failure_; }
  // The counters became unavailable during a measurement: disabled, for good.
  void FailForGood(ProfileFailure failure);

  const std::string& chip() const { return chip_; }
  // Whether CUPTI's range profiler object exists for the context (enabled at the first
  // measured launch, never again after it is disabled).
  bool enabled() const { return object_ != nullptr || disabled_; }
  std::uint32_t passes() const { return passes_; }
  // The counter data image: the last measurement's, reused by the next one.
  const std::vector<std::uint8_t>& counter_data() const { return counter_data_; }

  // Before the launch: a fresh image (application replay: the image the previous run left),
  // the configuration, and Start. On an error, `what` names the CUPTI call; `failure` is set
  // (with CUPTI_SUCCESS returned) when application replay cannot continue this launch.
  // `range_name`: --replay-mode app-range, a user range of that name pushed after Start (the
  // caller synchronised the context first, so that the range holds only what follows).
  CUptiResult BeginMeasurement(const inject::OwnedProfiledKernel& kernel, std::string& what,
                               std::string& failure, const char* range_name = nullptr);
  // After the launch (its replay passes ran inside it): Stop and decode. `pop_range`: the
  // user range BeginMeasurement pushed is popped first (the caller synchronised the context).
  CUptiResult EndMeasurement(std::string& what, StopResult& stopped, bool pop_range = false);
  // gpuscope's own replay (kernel replay, counter_passes.h): a fresh image and the
  // configuration (auto range, user replay); then one RunPass per pass until CUPTI says every
  // pass was submitted (`launch` runs the launch once and waits for it; its status comes back
  // in `launched`); then FinishOwnReplay decodes.
  CUptiResult BeginOwnReplay(std::string& what);
  CUptiResult RunPass(const std::function<Status()>& launch, std::string& what,
                      bool& all_passes_submitted, Status& launched);
  CUptiResult FinishOwnReplay(std::string& what, StopResult& stopped);
  // An exception cut a measurement short: Stop, best effort.
  void StopAfterFailure();

  void Disable();

 private:
  CUptiResult Enable(std::string& what);
  CUptiResult Configure(CUpti_ProfilerReplayMode replay_mode, const inject::AppReplayStep& step,
                        CUpti_ProfilerRange range = CUPTI_AutoRange);
  CUptiResult Decode(std::string& what, StopResult& stopped);
  CUptiResult ResetImage(std::string& what);

  ProfilerSetup& setup_;
  const CUcontext context_;
  const std::uint32_t device_id_;
  // Disabled for good: CUPTI must never enable it twice (disabling after each launch and
  // enabling again for the next made the program die of SIGSEGV on an H200, 2026-11-28).
  bool disabled_ = false;

  std::string chip_;
  std::uint32_t passes_ = 0;
  const cupti::host::ConfigImage* config_image_ = nullptr;  // setup_'s image for chip_
  CUpti_RangeProfiler_Object* object_ = nullptr;
  std::vector<std::uint8_t> counter_data_;
  ProfileFailure failure_;
};

}  // namespace gpuscope::cupti
