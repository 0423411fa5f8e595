#include "cupti/pm_sampling_device.h"

#include <cupti_target.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>

#include "cupti/counter_access.h"
#include "cupti/cupti_error.h"
#include "cupti/cupti_params.h"
#include "cupti/driver_entry_points.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

constexpr const char* kTraceGoesOn = "; the trace goes on without GPU metrics";

}  // namespace

void PmSamplingDevice::Fail(CUptiResult result, const std::string& what) {
  std::string message = IsUnavailable(result)
                            ? UnavailableMessage(result, what)
                            : "cannot sample GPU metrics on device " + std::to_string(device_id_) +
                                  " (" + what + ": " + CuptiResultName(result) + ")";
  sampling_.status = message + kTraceGoesOn;
}

bool PmSamplingDevice::Start() {
  sampling_.set_name = std::string(settings_.set->name);
  sampling_.interval_ns = settings_.interval_ns;
  sampling_.hardware_buffer_bytes = settings_.hardware_buffer_bytes;

  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device_id_;
  if (CUptiResult r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS || !chip.pChipName) {
    Fail(r, "cuptiDeviceGetChipName");
    return false;
  }
  sampling_.chip = chip.pChipName;

  // Where missing permissions or another tool holding the counters show first (notes 6.1).
  auto availability = Params<CUpti_PmSampling_GetCounterAvailability_Params>(
      CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.deviceIndex = device_id_;
  if (CUptiResult r = cuptiPmSamplingGetCounterAvailability(&availability); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterAvailability");
    return false;
  }

  StatusOr<std::unique_ptr<host::MetricHost>> opened =
      host::MetricHost::Open(sampling_.chip, host::ProfilerKind::kPmSampling);
  if (!opened.ok()) {
    sampling_.status = "cannot sample GPU metrics on device " + std::to_string(device_id_) + ": " +
                       opened.status().message() + kTraceGoesOn;
    return false;
  }
  host_ = std::move(*opened);

  // CUPTI enables PM sampling for a device index; the sample programs do it with the device's
  // context current, so this thread makes it current first (one cuCtxSetCurrent of gpuscope's
  // own in the trace, per device).
  if (StatusOr<const DriverEntryPoints*> driver = Driver();
      driver.ok() && (*driver)->context_set_current != nullptr) {
    (void)(*driver)->context_set_current(context_);
  }
  auto enable =
      Params<CUpti_PmSampling_Enable_Params>(CUpti_PmSampling_Enable_Params_STRUCT_SIZE);
  enable.deviceIndex = device_id_;
  if (CUptiResult r = cuptiPmSamplingEnable(&enable); r != CUPTI_SUCCESS || !enable.pPmSamplingObject) {
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
  if (CUptiResult r = cuptiPmSamplingStart(&start); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingStart");
    Disable();
    return false;
  }
  started_ = true;
  inject::LogDebug("GPU metrics: sampling device " + std::to_string(device_id_) + " (" +
                   sampling_.chip + ", set " + sampling_.set_name + ", " +
                   std::to_string(metrics_.size()) + " metrics, every " +
                   std::to_string(settings_.interval_ns) + " ns)");
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
  auto set_config =
      Params<CUpti_PmSampling_SetConfig_Params>(CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE);
  set_config.pPmSamplingObject = object_;
  set_config.configSize = config->bytes.size();
  set_config.pConfig = config->bytes.data();
  set_config.hardwareBufferSize = settings_.hardware_buffer_bytes;
  set_config.samplingInterval = settings_.interval_ns;
  // A fixed-frequency trigger in ns (GA10x and later: H100/H200); the SYSCLK trigger would count
  // a clock whose frequency varies.
  set_config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
  // Keep-oldest: a full buffer is reported (overflow), so the loss is counted, not hidden.
  set_config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
  if (CUptiResult r = cuptiPmSamplingSetConfig(&set_config); r != CUPTI_SUCCESS) {
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
  if (CUptiResult r = cuptiPmSamplingGetCounterDataSize(&size); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterDataSize");
    return false;
  }
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
  if (CUptiResult r = cuptiPmSamplingCounterDataImageInitialize(&init); r != CUPTI_SUCCESS) {
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
  // The image holds max_samples_per_decode samples: decode, read, reset, until the hardware
  // buffer is empty (bounded, so that a stuck CUPTI cannot keep this thread forever).
  for (int round = 0; round < 64; ++round) {
    auto decode = Params<CUpti_PmSampling_DecodeData_Params>(
        CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE);
    decode.pPmSamplingObject = object_;
    decode.pCounterDataImage = counter_data_.data();
    decode.counterDataImageSize = counter_data_.size();
    CUptiResult r = cuptiPmSamplingDecodeData(&decode);
    if (r != CUPTI_SUCCESS) {
      Fail(r, "cuptiPmSamplingDecodeData");
      break;
    }
    overflowed = overflowed || decode.overflow != 0;
    ReadSamples(batch, decoded);
    if (!ResetImage()) break;
    if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
  }
  if (overflowed) {
    ++sampling_.overflows;
    // The buffer filled within this decode period: what was decoded is what it holds, so a rate
    // of `decoded` samples per period would have fitted.
    if (decoded != 0 && last_decode_ns_ != 0 && now_ns > last_decode_ns_) {
      sampling_.fitting_interval_ns =
          std::max(sampling_.fitting_interval_ns, (now_ns - last_decode_ns_) / decoded);
    }
  }
  last_decode_ns_ = now_ns;
  batch.sampling = sampling_;
}

void PmSamplingDevice::ReadSamples(inject::GpuMetricBatch& batch, std::uint64_t& decoded) {
  auto info = Params<CUpti_PmSampling_GetCounterDataInfo_Params>(
      CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = counter_data_.data();
  info.counterDataImageSize = counter_data_.size();
  if (CUptiResult r = cuptiPmSamplingGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
    Fail(r, "cuptiPmSamplingGetCounterDataInfo");
    return;
  }
  const std::vector<std::string>& names = names_;
  for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
    ++decoded;
    auto sample = Params<CUpti_PmSampling_CounterData_GetSampleInfo_Params>(
        CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE);
    sample.pPmSamplingObject = object_;
    sample.pCounterDataImage = counter_data_.data();
    sample.counterDataImageSize = counter_data_.size();
    sample.sampleIndex = i;
    if (cuptiPmSamplingCounterDataGetSampleInfo(&sample) != CUPTI_SUCCESS ||
        sample.endTimestamp < sample.startTimestamp || sample.startTimestamp == 0) {
      ++sampling_.dropped_samples;
      continue;
    }
    if (!first_sample_seen_) {
      // It spans from Start to the first trigger (0.9 s on the H200): not a sample of the
      // period. Not counted as dropped.
      first_sample_seen_ = true;
      last_end_ = sample.endTimestamp;
      continue;
    }
    StatusOr<std::vector<std::optional<double>>> values =
        host_->Evaluate(std::span<const std::uint8_t>(counter_data_), i, names);
    // Samples missing between the last decoded one and this one (a full buffer keeps the
    // oldest and loses what comes until the next decode) are counted by the gap they leave.
    if (last_end_ != 0 && sample.startTimestamp > last_end_ && settings_.interval_ns != 0) {
      sampling_.dropped_samples +=
          (sample.startTimestamp - last_end_ + settings_.interval_ns / 2) / settings_.interval_ns;
    }
    last_end_ = sample.endTimestamp;
    if (!values.ok()) {
      ++sampling_.dropped_samples;
      continue;
    }
    batch.starts.push_back(sample.startTimestamp);
    batch.ends.push_back(sample.endTimestamp);
    for (const std::optional<double>& value : *values) {
      batch.values.push_back(value.value_or(std::numeric_limits<double>::quiet_NaN()));
    }
    ++sampling_.samples;
  }
}

void PmSamplingDevice::Stop(inject::GpuMetricBatch& batch, std::uint64_t now_ns) {
  if (started_) {
    auto stop = Params<CUpti_PmSampling_Stop_Params>(CUpti_PmSampling_Stop_Params_STRUCT_SIZE);
    stop.pPmSamplingObject = object_;
    // Stopped first, so that the last decode sees every sample the GPU wrote.
    CUptiResult r = cuptiPmSamplingStop(&stop);
    Decode(batch, now_ns);
    if (r != CUPTI_SUCCESS) inject::LogDebug("cuptiPmSamplingStop: " + CuptiResultName(r));
    started_ = false;
  }
  Disable();
  batch.device_id = device_id_;
  batch.metric_count = metrics_.size();
  batch.sampling = sampling_;
}

void PmSamplingDevice::Disable() {
  if (object_ == nullptr) return;
  auto disable =
      Params<CUpti_PmSampling_Disable_Params>(CUpti_PmSampling_Disable_Params_STRUCT_SIZE);
  disable.pPmSamplingObject = object_;
  (void)cuptiPmSamplingDisable(&disable);  // nothing to do about a failure here
  object_ = nullptr;
}

}  // namespace gpuscope::cupti
