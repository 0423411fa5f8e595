// `gpuscope profile` inside the traced process: each selected kernel launch is measured by
// CUPTI's Range Profiler, replayed by gpuscope itself (counter_passes.h: device memory saved,
// the launch run once per pass with L2 flushed before each and memory restored between them,
// auto range, user replay) from the driver launch call's enter callback; a launch that cannot
// be replayed that way (no published parameters) falls back to CUPTI's kernel replay, and
// --replay-mode application runs the program once per pass.
//
// Flow per selected launch, on the program's thread, inside the launch call's callbacks:
//   enter: LaunchSelection decides (in the nested driver call when the runtime call has no
//          context yet or hides a stream the filter needs: LaunchNesting) -> (first time per
//          context) ContextRangeProfiler::Prepare initialises the profiler, checks the device
//          and the counters, takes the config image the CLI built (or builds it) -> (first
//          measurement) enable the range profiler and size the counter data for one range ->
//          own replay (counter_passes.h): every pass run here, the image decoded and sent to
//          the Collector (writer thread); the program's launch then runs unmeasured.
//          Fallback (CUPTI's kernel replay) and application replay: reset the image,
//          SetConfig(auto range, kernel or application replay), Start
//   exit:  (fallback and application replay) Stop, DecodeData -> the Collector; the range
//          profiler is disabled once no selected launch is pending or can come
//          (CUPTI must never enable it twice on a context)
// Launches that are not selected pass through untouched (no serialisation, no replay); the
// only cost is the name lookup and the selector, and none at all once --launch-count is
// reached. Measurements are serialised by one lock: CUPTI replays one kernel at a time.
//
// Failures never reach the program: a context whose counters cannot be read (permissions,
// vGPU, MIG, another tool holding them) is named once with the cause and the fix, and its
// selected launches are recorded as not measured with the reason; the program runs on and
// is traced.
//
// The pieces: launch_call.h (what a launch callback tells), launch_selection.h and
// launch_nesting.h (which launches are measured, at which of the nested calls; CUPTI-free),
// context_range_profiler.h (CUPTI's profiler objects of one context), profiler_setup.h (what
// all contexts share: initialisation, config images), counter_access.h (failures and their
// messages), profile_progress.h (the per-kernel line).
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "cupti/common/callback_table.h"
#include "cupti/profiler/context_range_profiler.h"
#include "cupti/profiler/counter_passes.h"
#include "cupti/profiler/launch_selection.h"
#include "cupti/profiler/profiler_setup.h"
#include "cupti/profiler/range_boundaries.h"
#include "cupti/profiler/source_passes.h"
#include "cupti/tracing/activity.h"
#include "inject/config.h"
#include "inject/profiled_kernel.h"

namespace gpuscope::cupti {

class LaunchCall;

struct KernelProfilerHooks {
  std::function<void(inject::OwnedProfiledKernel)> submit;  // to the collector
  bool progress = true;  // the ncu-like "Profiling ..." line per measured kernel
};

// One per process: the callbacks reach it through the callback table's slot
// (CallbackSlot::kKernelProfiler) EnableKernelProfiler registers it in (callbacks.h), and its
// per-thread launch state is per thread, not per object. Once registered it must live until
// the process ends (CUPTI calls back until then).
class KernelProfiler final : public CallbackHandler {
 public:
  KernelProfiler(const inject::ProfileConfig& config, KernelProfilerHooks hooks);
  KernelProfiler(const KernelProfiler&) = delete;
  KernelProfiler& operator=(const KernelProfiler&) = delete;

  std::size_t metric_count() const { return config_.metrics.size(); }

  // Its part of the subscriber callback (kernel_profiler_callbacks.cpp): consumes the kernel
  // launch calls; sees context destruction, module loads, and with app-range the NVTX
  // callbacks and cudaProfilerStart/Stop.
  bool Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) override;

  // A context is being destroyed: its range profiler goes with it (a later context may get
  // the same address). Never throws.
  void ForgetContext(CUcontext context);

  // Source counters asked for: module loads are watched (their cubins kept).
  bool source_counters() const { return config_.source_counters; }
  // The session ends: CUPTI's SASS patching configuration is released. Never throws.
  void ReleaseSourcePasses();
  // CUPTI_CBID_RESOURCE_MODULE_LOADED; never throws.
  void OnModuleLoaded(const void* cubin, std::size_t size);

  // --replay-mode app-range: ranges of the program are measured, not launches (launches are
  // only counted, for the range's "N kernels"). range_measurement.cpp.
  bool app_range() const { return config_.replay_mode == model::ReplayMode::kAppRange; }
  const RangeBoundaries& range_boundaries() const { return boundaries_; }
  // From the subscriber's callback: cudaProfilerStart/Stop (runtime or driver) and the NVTX
  // callbacks RangeBoundaries asked for; never throws.
  void OnProfilerApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                             const CUpti_CallbackData& data);
  void OnNvtxCallback(CUpti_CallbackId cbid, const CUpti_NvtxData& data);
  // The session ends: a range that began and never ended is said and recorded as not
  // measured. Never throws.
  void AbandonOpenRange();

  // From the subscriber's callback, for a kernel launch call (IsKernelLaunchCallback);
  // never throws.
  void OnLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                        const CUpti_CallbackData& data);

 private:
  struct LaunchInFlight;
  static LaunchInFlight& ThisThreadsLaunch();

  // Returns false when this call cannot decide and a nested driver call should.
  bool OnEnter(const LaunchCall& call, LaunchInFlight& launch);
  void OnExit(const LaunchCall& call, LaunchInFlight& launch);
  // The launch's outcome once the measurement ended (false: another run adds the next pass).
  bool RecordOutcome(const LaunchCall& call, CUptiResult result, const std::string& what,
                     const StopResult& stopped, const ContextRangeProfiler& context,
                     inject::OwnedProfiledKernel& kernel);
  // The same for a measurement that is not a launch's (a range).
  bool RecordMeasurement(CUptiResult result, const std::string& what, const StopResult& stopped,
                         const ContextRangeProfiler& context, inject::OwnedProfiledKernel& kernel);
  // app-range (range_measurement.cpp), under mutex_: the range being measured.
  struct OpenRange {
    std::uint64_t token = 0;  // RangeBoundary::token of its begin
    ContextRangeProfiler* context = nullptr;
    inject::OwnedProfiledKernel result;
    std::uint32_t launches_at_begin = 0;
    // Kernel records without CUPTI's instrumentation inside the range (activity.h).
    std::optional<SerialKernelRecords> serial_kernels;
  };
  void BeginRange(const RangeBoundary& boundary, CUcontext api_context);
  void EndRange(const RangeBoundary& boundary);
  void SubmitRange(inject::OwnedProfiledKernel& range);
  bool RangesExhausted() const;
  // Kernel replay is gpuscope's own (counter_passes.h) wherever the launch can be replayed,
  // when the caches are to be flushed. With --cache-control none CUPTI's kernel replay stays:
  // it leaves L2 closer to ncu's --cache-control none (H200, 2026-11-28: own replay without
  // the flush read DRAM bytes ~1.1 MB where ncu reads ~15 KB, its checkpoint having displaced
  // the program's lines from L2). With --replay-no-restore the replay is ours whatever the
  // cache control: CUPTI's kernel replay always saves and restores.
  bool own_replay() const {
    return config_.replay_mode == model::ReplayMode::kKernel &&
           (config_.cache_control == contract::CacheControl::kAll || !config_.restore_memory);
  }
  // ContextRangeProfiler::BeginMeasurement; its failure (empty when it started) classified,
  // and a context whose counters became unavailable failed for good.
  ProfileFailure BeginMeasurement(ContextRangeProfiler& context,
                                  const inject::OwnedProfiledKernel& kernel,
                                  const char* range_name);
  void MeasureByOwnReplay(const LaunchCall& call, ContextRangeProfiler& context,
                          LaunchInFlight& launch);
  ContextRangeProfiler& ContextFor(CUcontext context, std::uint32_t device_id);
  void Submit(LaunchInFlight& launch);
  void SayUnavailableOnce(const std::string& why);
  // Records the selected launch of `launch` as not measured, with `failure`'s outcome and
  // message, and lets it run as the program made it (releases the profiler's lock).
  void SubmitUnmeasured(LaunchInFlight& launch, const ProfileFailure& failure, bool progress);

  const inject::ProfileConfig config_;
  const KernelProfilerHooks hooks_;
  LaunchSelection selection_;
  // Serialises measurements and guards everything below. A selected launch holds it from its
  // enter callback to its exit callback.
  std::mutex mutex_;
  ProfilerSetup setup_;
  std::unordered_map<CUcontext, std::unique_ptr<ContextRangeProfiler>> contexts_;
  bool said_unavailable_ = false;
  SourcePasses source_;  // gpuscope's own replay for source counters (config_.source_counters)
  CounterPasses counter_passes_;  // gpuscope's own replay for the counters (kernel replay)
  // app-range: the range being measured (one at a time), ranges seen and selected (-s/-c
  // count ranges), and the program's kernel launches so far (any thread).
  RangeBoundaries boundaries_;
  std::unique_ptr<OpenRange> open_range_;
  std::uint64_t ranges_seen_ = 0;
  std::uint32_t ranges_selected_ = 0;
  bool said_overlap_ = false;
  std::atomic<std::uint32_t> kernel_launches_{0};
};

}  // namespace gpuscope::cupti
