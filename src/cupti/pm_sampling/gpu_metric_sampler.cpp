#include "cupti/pm_sampling/gpu_metric_sampler.h"

#include <cupti_profiler_target.h>

#include <algorithm>

#include "cupti/common/counter_access.h"
#include "cupti/common/cupti_error.h"
#include "cupti/common/cupti_params.h"
#include "cupti/tracing/activity.h"
#include "inject/background_thread.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

PmSamplingSettings SettingsFor(const inject::GpuMetricsConfig& config) {
  PmSamplingSettings settings;
  settings.set = FindGpuMetricSet(config.set_name);
  if (settings.set == nullptr) settings.set = FindGpuMetricSet(kDefaultGpuMetricSet);
  const std::uint32_t hz = config.frequency_hz != 0 ? config.frequency_hz
                                                    : kDefaultGpuMetricsFrequencyHz;
  settings.interval_ns = 1'000'000'000ull / hz;
  // Room for four decode periods of samples in the image, so that one decode rarely needs a
  // second round.
  const std::uint64_t per_decode =
      hz * static_cast<std::uint64_t>(GpuMetricSampler::kDecodePeriod.count()) / 1000 + 1;
  settings.max_samples_per_decode =
      static_cast<std::uint32_t>(std::clamp<std::uint64_t>(4 * per_decode, 64, 16384));
  return settings;
}

}  // namespace

GpuMetricSampler::GpuMetricSampler(const inject::GpuMetricsConfig& config, Submit submit)
    : settings_(SettingsFor(config)), record_path_(config.record_path), submit_(std::move(submit)) {}

GpuMetricSampler::~GpuMetricSampler() { Stop(); }

Status GpuMetricSampler::Start() {
  return inject::StartBackgroundThread("gpuscope-pm", [this] { Loop(); }, thread_);
}

bool GpuMetricSampler::Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                              const void* data) {
  if (domain != CUPTI_CB_DOMAIN_RESOURCE) return false;
  const CUcontext context = static_cast<const CUpti_ResourceData*>(data)->context;
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) OnContextCreated(context);
  if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) OnContextDestroyStarting(context);
  return false;
}

void GpuMetricSampler::OnContextCreated(CUcontext context) {
  try {
    std::uint32_t device = 0;
    if (cuptiGetDeviceId(context, &device) != CUPTI_SUCCESS) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ || !seen_.insert(device).second) return;
    pending_.emplace_back(device, context);
    wake_.notify_one();
  } catch (...) {
    // Out of memory: this device is not sampled; never into the program.
  }
}

void GpuMetricSampler::OnContextDestroyStarting(CUcontext context) {
  try {
    std::lock_guard<std::mutex> lock(devices_mutex_);
    for (auto it = devices_.begin(); it != devices_.end(); ++it) {
      if (it->second->context() != context) continue;
      // The context goes: its PM sampling object with it (after the session's end too, when
      // the runtime tears contexts down after the exit handler; then the batch is only counted).
      inject::GpuMetricBatch batch;
      it->second->Release(batch, Now());
      Send(std::move(batch));
      devices_.erase(it);
      return;
    }
  } catch (...) {
  }
}

void GpuMetricSampler::SayFailure(const PmSamplingDevice& device) {
  // Counters that cannot be read fail every device alike: one line for the process (each
  // device's status still goes into the report).
  if (device.counters_unavailable()) {
    if (said_unavailable_) return;
    said_unavailable_ = true;
  }
  inject::LogError(device.Sampling().status);
}

void GpuMetricSampler::Send(inject::GpuMetricBatch batch) {
  if (batch.samples() == 0 && batch.metrics.empty() && !batch.sampling) return;
  submit_(std::move(batch));
}

void GpuMetricSampler::Loop() {
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait_for(lock, kDecodePeriod, [this] { return stopping_ || !pending_.empty(); });
      if (stopping_) return;
    }
    try {
      StartPending();
      DecodeAll();
    } catch (...) {
      inject::LogError("GPU metric sampling failed (out of memory); samples are missing from here");
    }
  }
}

void GpuMetricSampler::StartPending() {
  std::vector<std::pair<std::uint32_t, CUcontext>> pending;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    pending.swap(pending_);
  }
  if (pending.empty()) return;
  std::lock_guard<std::mutex> lock(devices_mutex_);
  if (stopped_) return;
  if (!profiler_initialized_) {
    // After cuInit: inside it the profiler fails to start (profiler_setup.h).
    auto params = Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (CUptiResult r = cuptiProfilerInitialize(&params); r != CUPTI_SUCCESS) {
      std::string message = IsUnavailable(r) ? UnavailableMessage(r, "cuptiProfilerInitialize")
                                             : "cannot sample GPU metrics (cuptiProfilerInitialize: " +
                                                   CuptiResultName(r) + ")";
      if (!said_unavailable_) inject::LogError(message + "; the trace goes on without GPU metrics");
      said_unavailable_ = true;  // one line, whichever device comes next
      for (const auto& [device, context] : pending) {
        inject::GpuMetricBatch batch;
        batch.device_id = device;
        batch.sampling = inject::OwnedGpuMetricSampling{};
        batch.sampling->set_name = std::string(settings_.set->name);
        batch.sampling->interval_ns = settings_.interval_ns;
        batch.sampling->status = message + "; the trace goes on without GPU metrics";
        Send(std::move(batch));
      }
      return;
    }
    profiler_initialized_ = true;
  }
  for (const auto& [device, context] : pending) {
    auto sampler = std::make_unique<PmSamplingDevice>(
        device, context, settings_, MakeCuptiPmSamplingCalls(record_path_, device));
    const bool started = sampler->Start();
    inject::GpuMetricBatch batch;
    batch.device_id = device;
    batch.sampling = sampler->Sampling();
    if (!started) {
      SayFailure(*sampler);
      Send(std::move(batch));
      continue;
    }
    Send(std::move(batch));
    devices_.emplace(device, std::move(sampler));
  }
}

void GpuMetricSampler::DecodeAll() {
  std::lock_guard<std::mutex> lock(devices_mutex_);
  for (auto& [device, sampler] : devices_) {
    inject::GpuMetricBatch batch;
    sampler->Decode(batch, Now());
    Send(std::move(batch));
  }
}

void GpuMetricSampler::Stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
  std::lock_guard<std::mutex> lock(devices_mutex_);
  if (stopped_) return;
  stopped_ = true;
  // Stopped, not disabled: the activity API's final flush comes after this, and nothing of
  // CUPTI's may be torn down before it. The objects go with their contexts
  // (OnContextDestroyStarting) or after the final flush (Release).
  for (auto& [device, sampler] : devices_) {
    try {
      inject::GpuMetricBatch batch;
      sampler->Stop(batch, Now());
      Send(std::move(batch));
      // Losses are shown where they happen, not only in the report's notes.
      if (std::string losses = sampler->LossSummary(); !losses.empty()) inject::LogError(losses);
    } catch (...) {
    }
  }
}

void GpuMetricSampler::Release() {
  Stop();
  std::lock_guard<std::mutex> lock(devices_mutex_);
  for (auto& [device, sampler] : devices_) {
    try {
      inject::GpuMetricBatch batch;
      sampler->Release(batch, Now());
      Send(std::move(batch));
    } catch (...) {
    }
  }
  devices_.clear();
}

}  // namespace gpuscope::cupti
