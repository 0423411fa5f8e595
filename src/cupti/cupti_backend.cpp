#include "cupti/cupti_backend.h"

#include "cupti/callbacks.h"
#include "cupti/common/subscriber.h"
#include "cupti/pm_sampling/gpu_metric_sampler.h"
#include "cupti/profiler/kernel_profiler.h"
#include "cupti/tracing/activity.h"
#include "cupti/tracing/api_callback_capture.h"
#include "cupti/tracing/gpu_clock.h"
#include "cupti/tracing/sticky_error_watch.h"
#include "cupti/tracing/translate.h"
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
    (void)gpu_metric_sampler_.release();  // the same for the context callbacks
  }

  Status Attach() override {
    GPUSCOPE_RETURN_IF_ERROR(Subscribe());
    RegisterAlwaysOnCallbacks();
    return Status();
  }

  void Release() override { Unsubscribe(); }

  std::unique_ptr<inject::BufferTranslator> MakeTranslator() override {
    return std::make_unique<ActivityTranslator>();
  }

  Status StartTracing(inject::Collector& collector,
                      const inject::TracingOptions& options) override {
    // Buffers must have somewhere to go before the first kind is enabled.
    SetBufferCollector(&collector);
    GPUSCOPE_RETURN_IF_ERROR(ConfigureActivity(options.flush_period_ms));
    SetTracingScope(options.scope);
    Status problems = EnableDescriptiveKinds();
    Status graphs = EnableGraphTrace();
    if (!graphs.ok()) problems = graphs;
    if (options.scope.cuda_api && options.scope.api_capture == ApiCapture::kCallback) {
      Status capture = EnableApiCallbackCapture(/*recording_now=*/options.record_from_start);
      if (!capture.ok()) problems = capture;
    }
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
                                       /*tracing_now=*/TracingKindsEnabled(),
                                       /*trace_nvtx=*/options.scope.nvtx);
    if (!callbacks.ok()) problems = callbacks;
    if (options.call_stacks != nullptr) {
      Status backtraces = EnableBacktraces(*options.call_stacks);
      if (!backtraces.ok()) problems = backtraces;
    }
    if (options.profile != nullptr && options.profile->enabled()) {
      // A clock kernel of ours would run inside the ranges the profiler measures.
      ProcessGpuClock().Disable("gpuscope profile measures kernels");
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
    if (options.gpu_metrics != nullptr && options.gpu_metrics->enabled()) {
      auto sampler = std::make_unique<GpuMetricSampler>(
          *options.gpu_metrics, [&collector](inject::GpuMetricBatch batch) {
            collector.SubmitGpuMetrics(std::move(batch));
          });
      Status started = sampler->Start();
      if (started.ok()) {
        SetGpuMetricSampler(*sampler);
        gpu_metric_sampler_ = std::move(sampler);
      } else {
        problems = Status::Error(started.message() + "; the trace goes on without GPU metrics");
      }
    }
    return problems;
  }

  void StopGpuMetrics() override {
    if (gpu_metric_sampler_ != nullptr) gpu_metric_sampler_->Stop();
  }

  void ReleaseGpuMetrics() override {
    if (gpu_metric_sampler_ != nullptr) gpu_metric_sampler_->Release();
  }

  // The captured API calls first (--api-capture callback): they go to the collector's queue
  // like the buffers CUPTI completes in FlushAll.
  Status Flush(bool forced) override {
    DrainCapturedApiCalls(/*final=*/forced);
    return FlushAll(forced);
  }

  std::uint64_t TakeDroppedRecords(bool at_exit) override {
    return at_exit ? TakeDroppedRecordsOfLiveContexts() : cupti::TakeDroppedRecords(nullptr);
  }

  model::Timestamp Now() override { return cupti::Now(); }

  // The host pair, and with kWithGpus one GPU pair per device (gpu_clock.h: CUPTI 13 has no
  // call that reads a GPU's own clock, cuptiDeviceGetTimestamp went with the Event API, so a
  // kernel of gpuscope's own reads it). Every record's GPU time is already on CUPTI's clock
  // (CUPTI normalises it), so the host pair is what aligning reports needs; the GPU pairs show
  // how the GPUs' own clocks stand to it over the run.
  std::vector<model::ClockSampleRecord> SampleClocks(inject::ClockSampling sampling) override {
    try {
      std::vector<model::ClockSampleRecord> samples{inject::HostClockSample(cupti::Now())};
      if (sampling == inject::ClockSampling::kWithGpus) {
        std::vector<model::ClockSampleRecord> pairs = ProcessGpuClock().Sample(LiveContextsNow());
        samples.insert(samples.end(), pairs.begin(), pairs.end());
      }
      return samples;
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
  // `gpuscope run --gpu-metrics`: the PM sampling thread the context callbacks reach.
  std::unique_ptr<GpuMetricSampler> gpu_metric_sampler_;
};

}  // namespace

std::unique_ptr<inject::TracingBackend> MakeCuptiBackend() {
  return std::make_unique<CuptiBackend>();
}

}  // namespace gpuscope::cupti
