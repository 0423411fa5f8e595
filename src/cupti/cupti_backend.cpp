#include "cupti/cupti_backend.h"

#include "cupti/activity.h"
#include "cupti/callbacks.h"
#include "cupti/kernel_profiler.h"
#include "cupti/translate.h"
#include "inject/host_clocks.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

class CuptiBackend : public inject::TracingBackend {
 public:
  ~CuptiBackend() override {
    // Once the launch callbacks reach the kernel profiler, CUPTI may call it until the process
    // ends (launches from static destructors, contexts torn down after our exit handler): it
    // is never destroyed. The session never destroys its backend in production anyway
    // (entry.cpp keeps it for the life of the process).
    (void)kernel_profiler_.release();
  }

  Status Attach() override { return Subscribe(); }

  void Release() override { Unsubscribe(); }

  std::unique_ptr<inject::BufferTranslator> MakeTranslator() override {
    return std::make_unique<ActivityTranslator>();
  }

  Status StartTracing(inject::Collector& collector,
                      const inject::TracingOptions& options) override {
    // Buffers must have somewhere to go before the first kind is enabled.
    SetBufferCollector(&collector);
    GPUSCOPE_RETURN_IF_ERROR(ConfigureActivity(options.flush_period_ms));
    Status problems = EnableDescriptiveKinds();
    if (options.record_from_start) {
      Status tracing = EnableTracingKinds();
      if (!tracing.ok()) problems = tracing;
    } else {
      inject::LogDebug("profile-from-start off: waiting for cudaProfilerStart");
    }
    if (options.on_sticky_error) {
      SetStickyErrorHandler([report = options.on_sticky_error](const StickyErrorCall& call) {
        report(call.api, call.domain, call.code);
      });
    }
    Status callbacks = EnableCallbacks(/*profiler_control=*/!options.record_from_start,
                                       /*tracing_now=*/TracingKindsEnabled());
    if (!callbacks.ok()) problems = callbacks;
    if (options.profile != nullptr && options.profile->enabled()) {
      KernelProfilerHooks hooks;
      hooks.submit = [&collector](inject::OwnedProfiledKernel kernel) {
        collector.SubmitProfiledKernel(std::move(kernel));
      };
      hooks.progress = options.profile_progress;
      auto profiler = std::make_unique<KernelProfiler>(*options.profile, std::move(hooks));
      Status enabled = EnableKernelProfiler(*profiler);
      if (enabled.ok()) {
        kernel_profiler_ = std::move(profiler);
      } else {
        problems = enabled;
      }
    }
    return problems;
  }

  Status Flush(bool forced) override { return FlushAll(forced); }

  std::uint64_t TakeDroppedRecords(bool at_exit) override {
    return at_exit ? TakeDroppedRecordsOfLiveContexts() : cupti::TakeDroppedRecords(nullptr);
  }

  model::Timestamp Now() override { return cupti::Now(); }

  // The host's clocks only. CUPTI 13 has no call that reads a GPU's own clock without running
  // work on the device: cuptiDeviceGetTimestamp belonged to the Event API, which CUDA 13
  // removed (and which compute capability 7.5 and later never supported). Every record's
  // GPU time is already on CUPTI's clock (CUPTI normalises it), so the host pair is what
  // aligning reports needs; clock_samples keeps device_id and gpu_ns for a source that can.
  std::vector<model::ClockSampleRecord> SampleClocks() override {
    try {
      return {inject::HostClockSample(cupti::Now())};
    } catch (...) {
      return {};  // out of memory: this sample is missing, the next flush tries again
    }
  }

  void StopCallbacks() override {
    IgnoreCallbacksFromNowOn();
    // Before CUDA tears its contexts down after us (a Numba program crashed at exit in CUPTI
    // with SASS patching still configured).
    if (kernel_profiler_ != nullptr) {
      kernel_profiler_->AbandonOpenRange();
      kernel_profiler_->ReleaseSourcePasses();
    }
  }

  void AbandonInForkedChild() override {
    IgnoreCallbacksFromNowOn();
    SetBufferCollector(nullptr);
  }

 private:
  // `gpuscope profile`: the profiler the launch callbacks reach (EnableKernelProfiler).
  std::unique_ptr<KernelProfiler> kernel_profiler_;
};

}  // namespace

std::unique_ptr<inject::TracingBackend> MakeCuptiBackend() {
  return std::make_unique<CuptiBackend>();
}

}  // namespace gpuscope::cupti
