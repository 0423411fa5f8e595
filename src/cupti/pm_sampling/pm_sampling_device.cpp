#include "cupti/pm_sampling/pm_sampling_device.h"

#include <cupti_target.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "cupti/common/counter_access.h"
#include "cupti/common/cupti_error.h"
#include "cupti/common/cupti_params.h"
#include "cupti/common/elapsed_time.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

constexpr const char* kTraceGoesOn = "; the trace goes on without GPU metrics";

// Decode rounds per call: each reads a full image and starts again, so a burst of
// 64 x max_samples_per_decode samples is decoded in one call; bounded, so that a CUPTI that
// keeps answering "image full" cannot hold the sampler thread.
constexpr int kMaxDecodeRounds = 64;

}  // namespace

void PmSamplingDevice::Fail(CUptiResult result, const std::string& what) {
  std::string message;
  if (IsUnavailable(result)) {
    counters_unavailable_ = true;
    message = UnavailableMessage(result, what);
  } else if (result == CUPTI_ERROR_INVALID_OPERATION && what == "cuptiPmSamplingEnable") {
    // CUPTI's answer when PM sampling is enabled on the device already: by another tool in this
    // process (a second injection, the program's own CUPTI use).
    counters_unavailable_ = true;
    message = "cannot sample GPU metrics on device " + std::to_string(device_id_) +
              ": PM sampling is enabled on it already (another profiling tool in this "
              "process?); run without it";
  } else {
    message = "cannot sample GPU metrics on device " + std::to_string(device_id_) + " (" + what +
              ": " + CuptiResultName(result) + ")";
  }
  sampling_.status = message + kTraceGoesOn;
}

bool PmSamplingDevice::Start() {
  const SteadyClock::time_point began = SteadyClock::now();
  sampling_.set_name = std::string(settings_.set->name);
  sampling_.interval_ns = settings_.interval_ns;
  sampling_.hardware_buffer_bytes = settings_.hardware_buffer_bytes;

  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device_id_;
  if (CUptiResult r = calls_->GetChipName(&chip); r != CUPTI_SUCCESS || !chip.pChipName) {
    Fail(r, "cuptiDeviceGetChipName");
    return false;
  }
  sampling_.chip = chip.pChipName;

  // vGPU without profiling, confidential computing, SLI, WSL...: said before anything is tried
  // (cuptiProfilerDeviceSupported, after cuptiProfilerInitialize, which the sampler did).
  if (std::string reason = calls_->UnsupportedReason(device_id_); !reason.empty()) {
    counters_unavailable_ = true;
    sampling_.status = "cannot sample GPU metrics: " + reason + kTraceGoesOn;
    return false;
  }

  // The availability image: its size first, then the image. Where missing permissions or
  // another tool holding the counters show first (notes 6.1); the host object is built with it.
  auto availability = Params<CUpti_PmSampling_GetCounterAvailability_Params>(
      CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.deviceIndex = device_id_;
  if (CUptiResult r = calls_->GetCounterAvailability(&availability); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterAvailability");
    return false;
  }
  std::vector<std::uint8_t> availability_image(availability.counterAvailabilityImageSize);
  if (!availability_image.empty()) {
    availability.pCounterAvailabilityImage = availability_image.data();
    if (CUptiResult r = calls_->GetCounterAvailability(&availability); r != CUPTI_SUCCESS) {
      Fail(r, "cuptiPmSamplingGetCounterAvailability");
      return false;
    }
  }

  StatusOr<std::unique_ptr<host::MetricHost>> opened = host::MetricHost::Open(
      sampling_.chip, host::ProfilerKind::kPmSampling, std::move(availability_image));
  if (!opened.ok()) {
    sampling_.status = "cannot sample GPU metrics on device " + std::to_string(device_id_) + ": " +
                       opened.status().message() + kTraceGoesOn;
    return false;
  }
  host_ = std::move(*opened);

  calls_->MakeCurrent(context_);
  auto enable =
      Params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  enable.deviceIndex = device_id_;
  if (CUptiResult r = calls_->Enable(&enable); r != CUPTI_SUCCESS || !enable.pPmSamplingObject) {
    Fail(r, "cuptiPmSamplingEnable");
    return false;
  }
  object_ = enable.pPmSamplingObject;

  std::vector<const GpuMetricSpec*> all, present;
  for (const GpuMetricSpec& metric : settings_.set->metrics) {
    all.push_back(&metric);
    if (!metric.only_where_present) present.push_back(&metric);
  }
  // A GPU without NVLink (a PCIe card) may refuse the NVLink counters: the set without them.
  if (!Configure(all) && (present.size() == all.size() || !Configure(present))) {
    Disable();
    return false;
  }
  sampling_.status.clear();

  auto start = Params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
  start.pPmSamplingObject = object_;
  if (CUptiResult r = calls_->Start(&start); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingStart");
    Disable();
    return false;
  }
  started_ = true;
  inject::LogDebug("GPU metrics: sampling device " + std::to_string(device_id_) + " (" +
                   sampling_.chip + ", set " + sampling_.set_name + ", " +
                   std::to_string(metrics_.size()) + " metrics, every " +
                   std::to_string(settings_.interval_ns) + " ns; started in " + Elapsed(began) + ")");
  return true;
}

bool PmSamplingDevice::Configure(const std::vector<const GpuMetricSpec*>& metrics) {
  std::vector<std::string> names;
  for (const GpuMetricSpec* metric : metrics) names.emplace_back(metric->name);
  StatusOr<host::ConfigImage> config = host_->MakeConfig(names);
  if (!config.ok()) {
    sampling_.status = "cannot configure GPU metric set '" + sampling_.set_name + "' on " +
                       sampling_.chip + ": " + config.status().message() + kTraceGoesOn;
    return false;
  }
  // Kept before SetConfig sees it: CUPTI holds on to pConfig (freed or rewritten, it hangs or
  // crashes later), so the image lives as long as the object, and a second Configure (without
  // NVLink) replaces it only after the first SetConfig was refused.
  config_image_ = std::move(config->bytes);
  auto set_config =
      Params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
  set_config.pPmSamplingObject = object_;
  set_config.configSize = config_image_.size();
  set_config.pConfig = config_image_.data();
  set_config.hardwareBufferSize = settings_.hardware_buffer_bytes;
  set_config.samplingInterval = settings_.interval_ns;
  // A fixed-frequency trigger in ns (GA10x and later: H100/H200); the SYSCLK trigger would count
  // a clock whose frequency varies.
  set_config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  // Keep-oldest: a full buffer is reported (overflow), so the loss is counted, not hidden.
  set_config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  if (CUptiResult r = calls_->SetConfig(&set_config); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingSetConfig");
    return false;
  }

  names_ = std::move(names);
  name_pointers_.clear();
  for (const std::string& name : names_) name_pointers_.push_back(name.c_str());
  auto size = Params<CUpti_PmSampling_GetCounterDataSize_Params>(
      CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pPmSamplingObject = object_;
  size.pMetricNames = name_pointers_.data();
  size.numMetrics = name_pointers_.size();
  size.maxSamples = settings_.max_samples_per_decode;
  if (CUptiResult r = calls_->GetCounterDataSize(&size); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterDataSize");
    return false;
  }
  const std::size_t requested_samples = size.maxSamples;
  const std::size_t requested_bytes = size.counterDataSize;
  if (size.counterDataSize > settings_.max_counter_data_bytes && size.maxSamples > 1) {
    // Fewer samples per image (a decode reads several images in rounds): the image for the
    // highest rates would take GiBs, and its initialisation alone delayed sampling by seconds.
    const std::uint64_t fitting = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(size.maxSamples) * settings_.max_counter_data_bytes /
               size.counterDataSize);
    size.maxSamples = static_cast<std::uint32_t>(fitting);
    if (CUptiResult r = calls_->GetCounterDataSize(&size); r != CUPTI_SUCCESS) {
      Fail(r, "cuptiPmSamplingGetCounterDataSize");
      return false;
    }
  }
  inject::LogDebug("GPU metrics: counter data image of " + std::to_string(size.maxSamples) +
                   " samples, " + std::to_string(size.counterDataSize >> 10) + " KiB (asked " +
                   std::to_string(requested_samples) + " samples, " +
                   std::to_string(requested_bytes >> 10) + " KiB)");
  counter_data_.assign(size.counterDataSize, 0);
  metrics_ = metrics;
  return ResetImage();
}

bool PmSamplingDevice::ResetImage() {
  auto init = Params<CUpti_PmSampling_CounterDataImage_Initialize_Params>(
      CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pPmSamplingObject = object_;
  init.counterDataSize = counter_data_.size();
  init.pCounterData = counter_data_.data();
  if (CUptiResult r = calls_->InitializeImage(&init); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingCounterDataImageInitialize");
    return false;
  }
  return true;
}

void PmSamplingDevice::Decode(inject::GpuMetricBatch& batch, std::uint64_t now_ns) {
  if (!started_) return;
  batch.device_id = device_id_;
  batch.metric_count = metrics_.size();
  if (!metrics_sent_) {
    for (const GpuMetricSpec* metric : metrics_) {
      batch.metrics.push_back({std::string(metric->name), std::string(metric->label),
                               std::string(metric->unit), static_cast<std::uint8_t>(metric->role)});
    }
    metrics_sent_ = true;
  }
  std::uint64_t decoded = 0;
  bool overflowed = false;
  bool must_restart = false;
  // The image holds max_samples_per_decode samples: decode, read, reset, until the hardware
  // buffer is empty.
  for (int round = 0; round < kMaxDecodeRounds; ++round) {
    auto decode = Params<CUpti_PmSampling_DecodeData_Params>(
        CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
    decode.pPmSamplingObject = object_;
    decode.pCounterDataImage = counter_data_.data();
    decode.counterDataImageSize = counter_data_.size();
    CUptiResult r = calls_->DecodeData(&decode);
    if (r == CUPTI_ERROR_OUT_OF_MEMORY) {
      // The hardware buffer overflowed (cupti_pmsampling.h): what the image got is read, then
      // sampling starts again, since the GPU writes no more samples until it does.
      overflowed = must_restart = true;
      ReadSamples(batch, decoded);
      break;
    }
    if (r != CUPTI_SUCCESS) {
      Fail(r, "cuptiPmSamplingDecodeData");
      break;
    }
    overflowed = overflowed || decode.overflow != 0;
    ReadSamples(batch, decoded);
    if (!ResetImage()) break;
    // END_OF_RECORDS: the buffer is empty. OTHER comes with samples too and ends this decode.
    if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
  }
  accounting_.OnDecode(decoded, overflowed, now_ns);
  if (must_restart && !stopping_ && !Restart()) {
    started_ = false;
    inject::LogError("GPU metrics: device " + std::to_string(device_id_) +
                     ": sampling could not start again after the hardware buffer overflowed (" +
                     sampling_.status + "); no samples from here on");
  }
  batch.sampling = Sampling();
}

bool PmSamplingDevice::Restart() {
  auto stop = Params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
  stop.pPmSamplingObject = object_;
  (void)calls_->Stop(&stop);  // a Start that follows fails if this did not work
  if (!ResetImage()) return false;
  auto start = Params<CUpti_PmSampling_Start_Params>(CUpti_PmSampling_Start_Params_STRUCT_SIZE);
  start.pPmSamplingObject = object_;
  if (CUptiResult r = calls_->Start(&start); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingStart");
    return false;
  }
  accounting_.OnRestart();
  return true;
}

void PmSamplingDevice::ReadSamples(inject::GpuMetricBatch& batch, std::uint64_t& decoded) {
  auto info = Params<CUpti_PmSampling_GetCounterDataInfo_Params>(
      CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data_.data();
  info.counterDataImageSize = counter_data_.size();
  if (CUptiResult r = calls_->GetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterDataInfo");
    return;
  }
  for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
    ++decoded;
    auto sample = Params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
    sample.pPmSamplingObject = object_;
    sample.pCounterDataImage = counter_data_.data();
    sample.counterDataImageSize = counter_data_.size();
    sample.sampleIndex = i;
    if (calls_->GetSampleInfo(&sample) != CUPTI_SUCCESS ||
        sample.endTimestamp < sample.startTimestamp || sample.startTimestamp == 0) {
      // No times to keep it by: counted as dropped by the gap it leaves before the next one
      // (counting it here too would count it twice).
      continue;
    }
    if (!accounting_.OnSample(sample.startTimestamp, sample.endTimestamp)) continue;
    StatusOr<std::vector<std::optional<double>>> values =
        host_->Evaluate(std::span<const std::uint8_t>(counter_data_), i, names_);
    if (!values.ok()) {
      accounting_.OnUnevaluated();
      continue;
    }
    batch.starts.push_back(sample.startTimestamp);
    batch.ends.push_back(sample.endTimestamp);
    for (const std::optional<double>& value : *values) {
      batch.values.push_back(value.value_or(std::numeric_limits<double>::quiet_NaN()));
    }
    accounting_.OnKept();
  }
}

void PmSamplingDevice::Stop(inject::GpuMetricBatch& batch, std::uint64_t now_ns) {
  if (started_) {
    auto stop = Params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
    stop.pPmSamplingObject = object_;
    // Stopped first, so that the last decode sees every sample the GPU wrote (and an overflow
    // found there starts nothing again).
    stopping_ = true;
    CUptiResult r = calls_->Stop(&stop);
    Decode(batch, now_ns);
    if (r != CUPTI_SUCCESS) inject::LogDebug("cuptiPmSamplingStop: " + CuptiResultName(r));
    started_ = false;
  }
  batch.device_id = device_id_;
  batch.metric_count = metrics_.size();
  batch.sampling = Sampling();
}

void PmSamplingDevice::Release(inject::GpuMetricBatch& batch, std::uint64_t now_ns) {
  Stop(batch, now_ns);
  Disable();
}

inject::OwnedGpuMetricSampling PmSamplingDevice::Sampling() const {
  inject::OwnedGpuMetricSampling sampling = sampling_;
  sampling.samples = accounting_.kept();
  sampling.dropped_samples = accounting_.dropped();
  sampling.overflows = accounting_.overflows();
  sampling.fitting_interval_ns = accounting_.fitting_interval_ns();
  return sampling;
}

void PmSamplingDevice::Disable() {
  if (object_ == nullptr) return;
  auto disable =
      Params<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
  disable.pPmSamplingObject = object_;
  (void)calls_->Disable(&disable);  // nothing to do about a failure here
  object_ = nullptr;
}

}  // namespace gpuscope::cupti
