// `gpuscope run --gpu-metrics`: PM sampling of every device the program uses, on a thread of
// gpuscope's own. A device is sampled from its first context's creation (the resource callback
// only queues it; CUPTI is driven from the sampler thread, never from the program's) until that
// context is destroyed or the session ends. Every 20 ms the sampler decodes what the GPU wrote
// and hands the samples to the collector. A device that cannot be sampled (counters not
// permitted, held by another tool, unsupported) costs one line with the cause and the fix, and
// the trace goes on.
#pragma once

#include <cuda.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "cupti/common/callback_table.h"
#include "cupti/pm_sampling/pm_sampling_device.h"
#include "inject/config.h"
#include "inject/gpu_metric_batch.h"

namespace gpuscope::cupti {

class GpuMetricSampler final : public CallbackHandler {
 public:
  using Submit = std::function<void(inject::GpuMetricBatch)>;
  // How often the hardware buffer is decoded: at 10 kHz, 200 samples per decode.
  static constexpr std::chrono::milliseconds kDecodePeriod{20};

  GpuMetricSampler(const inject::GpuMetricsConfig& config, Submit submit);
  ~GpuMetricSampler();
  GpuMetricSampler(const GpuMetricSampler&) = delete;
  GpuMetricSampler& operator=(const GpuMetricSampler&) = delete;

  // Starts the sampler thread; an error says why no device will be sampled.
  Status Start();

  // Its part of the subscriber callback (CallbackSlot::kGpuMetricSampler): context creation
  // and destruction, to the two below; consumes nothing.
  bool Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) override;
  // CUPTI's resource callbacks (the program's threads; never throw, never block on the GPU).
  void OnContextCreated(CUcontext context);
  // Stops the device's sampling before its context goes (waits for the sampler's current step).
  void OnContextDestroyStarting(CUcontext context);

  // Joins the thread, then stops every device with a last decode (not disabled yet: the
  // activity API's final flush comes after this). Idempotent.
  void Stop();
  // After the final flush: Stop, then disables every device's PM sampling (before the CUDA
  // runtime tears the contexts down, when no callback tells us any more). Idempotent.
  void Release();

 private:
  void Loop();
  void StartPending();
  void DecodeAll();
  void Send(inject::GpuMetricBatch batch);
  void SayFailure(const PmSamplingDevice& device);  // under devices_mutex_

  const PmSamplingSettings settings_;
  const std::string record_path_;  // GPUSCOPE_PM_SAMPLING_RECORD (empty: not recorded)
  const Submit submit_;
  std::thread thread_;

  std::mutex mutex_;  // guards pending_, seen_, stopping_
  std::condition_variable wake_;
  std::vector<std::pair<std::uint32_t, CUcontext>> pending_;
  std::set<std::uint32_t> seen_;  // devices queued once: one context per device is sampled
  bool stopping_ = false;

  std::mutex devices_mutex_;  // guards devices_ and every CUPTI PM sampling call
  std::map<std::uint32_t, std::unique_ptr<PmSamplingDevice>> devices_;
  bool profiler_initialized_ = false;
  bool stopped_ = false;           // under devices_mutex_
  bool said_unavailable_ = false;  // under devices_mutex_
};

}  // namespace gpuscope::cupti
