// CUPTI's PM sampling on one device (`gpuscope run --gpu-metrics`): device-wide counters sampled
// by the GPU at a fixed rate into a hardware buffer, decoded into a counter-data image and
// evaluated with the Profiler Host API (cupti/host, PM sampling catalog).
//
//   Start    cuptiProfilerInitialize (once per process, by the caller), the chip, whether the
//            device supports PM sampling (cuptiProfilerDeviceSupported: vGPU, WSL, ...), the device's
//            counter availability image (size, then fill: where missing permissions or another
//            tool holding the counters show first; the host object is built with it, so that
//            configs use only what the device offers now), the host's config image (kept: CUPTI
//            keeps the pointer SetConfig is given), cuptiPmSamplingEnable, SetConfig (time
//            trigger, keep-oldest buffer), the counter-data image (GetCounterDataSize for
//            max_samples_per_decode samples, Initialize), cuptiPmSamplingStart
//   Decode   cuptiPmSamplingDecodeData until the hardware buffer is empty or the image is full
//            (then read, reset and decode again); per completed sample its times
//            (GetSampleInfo) and values (host evaluation). An overflowed buffer (the `overflow`
//            flag, or CUPTI_ERROR_OUT_OF_MEMORY, after which sampling must be restarted: Stop,
//            Start) is counted with the interval that would have fitted; the samples it lost
//            are counted by the gap they leave between kept samples.
//   Stop     cuptiPmSamplingStop, a last Decode. Disable only when the context goes
//            (Release): never before the activity API's final flush, which comes after Stop.
//
// Timestamps: CUPTI's sample start/end times were seen on the H200 (notes/cupti.md 4.1) to be on
// the clock of cuptiGetTimestamp, the clock of every activity record, so they are stored as they
// come. ASSUMED, to verify on the GPU: that this holds for this driver too (the GPU test checks
// that SM active is high inside the busy kernel's [start, end] and low in the idle gap, which
// fails if the clocks are apart by more than a few ms).
//
// Not thread-safe: the sampler (gpu_metric_sampler.h) calls it under its lock. Every CUPTI call
// of the device goes through PmSamplingCalls (pm_sampling_calls.h), so that a recorded session
// plays it back in the GPU-free tests. Never throws
// except std::bad_alloc (the sampler catches it).
#pragma once

#include <cupti.h>
#include <cupti_pmsampling.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"
#include "cupti/pm_sampling/pm_sample_accounting.h"
#include "cupti/pm_sampling/pm_sampling_calls.h"
#include "inject/gpu_metric_batch.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::cupti {

struct PmSamplingSettings {
  const GpuMetricSet* set = nullptr;
  std::uint64_t interval_ns = 100'000;
  std::uint64_t hardware_buffer_bytes = 128ull << 20;
  std::uint32_t max_samples_per_decode = 4096;  // samples the counter-data image holds
  // ...at most this many bytes: fewer samples per image beyond (a decode reads more rounds).
  std::uint64_t max_counter_data_bytes = 64ull << 20;
};

class PmSamplingDevice {
 public:
  // `calls`: CUPTI's (MakeCuptiPmSamplingCalls), or a recorded session played back (tests).
  PmSamplingDevice(std::uint32_t device_id, CUcontext context, PmSamplingSettings settings,
                   std::unique_ptr<PmSamplingCalls> calls)
      : device_id_(device_id),
        context_(context),
        settings_(settings),
        calls_(std::move(calls)),
        accounting_(settings.interval_ns) {}
  ~PmSamplingDevice() { Disable(); }
  PmSamplingDevice(const PmSamplingDevice&) = delete;
  PmSamplingDevice& operator=(const PmSamplingDevice&) = delete;

  std::uint32_t device_id() const { return device_id_; }
  CUcontext context() const { return context_; }
  bool sampling() const { return started_; }

  // False (with Sampling().status set to one line with the cause and the fix) when the device
  // cannot be sampled; the trace goes on without its samples.
  bool Start();
  // Decodes what the GPU wrote since the last call into `batch` (its first batch also carries
  // the metrics). `now_ns`: the time of this decode, on the records' clock (for the rate that
  // would fit, after an overflow).
  void Decode(inject::GpuMetricBatch& batch, std::uint64_t now_ns);
  // Stops sampling and decodes the rest into `batch`. Idempotent. The PM sampling object stays
  // enabled (see Release).
  void Stop(inject::GpuMetricBatch& batch, std::uint64_t now_ns);
  // Stop, then disable: the device's context is going.
  void Release(inject::GpuMetricBatch& batch, std::uint64_t now_ns);

  // How sampling stands (the latest state goes into the report).
  inject::OwnedGpuMetricSampling Sampling() const;
  // Whether Start failed because the counters cannot be read at all (permissions, another tool
  // holding them, vGPU, MIG): the same cause for every device, said once.
  bool counters_unavailable() const { return counters_unavailable_; }
  // One line about what was lost (dropped samples, overflows and the rate that would have
  // fitted), or empty when nothing was.
  std::string LossSummary() const { return accounting_.LossSummary(device_id_); }

 private:
  bool Configure(const std::vector<const GpuMetricSpec*>& metrics);
  void Fail(CUptiResult result, const std::string& what);
  // One decode into the image; false when sampling cannot go on.
  void ReadSamples(inject::GpuMetricBatch& batch, std::uint64_t& decoded);
  bool ResetImage();
  // After CUPTI_ERROR_OUT_OF_MEMORY from DecodeData: Stop, a fresh image, Start.
  bool Restart();
  void Disable();

  const std::uint32_t device_id_;
  const CUcontext context_;
  const PmSamplingSettings settings_;
  const std::unique_ptr<PmSamplingCalls> calls_;
  std::unique_ptr<host::MetricHost> host_;
  std::vector<const GpuMetricSpec*> metrics_;  // configured (the set less what the GPU lacks)
  std::vector<std::string> names_;
  std::vector<const char*> name_pointers_;
  // The config image SetConfig was given: CUPTI keeps its pointer, so it lives as long as the
  // PM sampling object.
  std::vector<std::uint8_t> config_image_;
  CUpti_PmSampling_Object* object_ = nullptr;
  std::vector<std::uint8_t> counter_data_;
  bool started_ = false;
  bool metrics_sent_ = false;
  bool counters_unavailable_ = false;
  bool stopping_ = false;  // the last Decode: an overflow restarts nothing
  PmSampleAccounting accounting_;         // what was kept and lost
  inject::OwnedGpuMetricSampling sampling_;  // the rest of how sampling stands
};

}  // namespace gpuscope::cupti
