#include "cupti/pm_sampling/pm_sampling_calls.h"

#include <cstring>
#include <fstream>
#include <utility>

#include "cupti/common/counter_access.h"
#include "cupti/common/driver_entry_points.h"
#include "cupti/tracing/own_replay_scope.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

class CuptiCalls : public PmSamplingCalls {
 public:
  CUptiResult GetChipName(CUpti_Device_GetChipName_Params* p) override {
    return cuptiDeviceGetChipName(p);
  }
  std::string UnsupportedReason(std::uint32_t device_id) override {
    return UnsupportedDeviceReason(device_id, ProfilerApi::kPmSampling);
  }
  CUptiResult GetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params* p) override {
    return cuptiPmSamplingGetCounterAvailability(p);
  }
  void MakeCurrent(CUcontext context) override {
    // CUPTI enables PM sampling for a device index; the sample programs do it with the
    // device's context current, so this thread makes it current first: a call of gpuscope's
    // own, left out of the trace like the GPU clock's (own_replay_scope.h).
    if (StatusOr<const DriverEntryPoints*> driver = Driver();
        driver.ok() && (*driver)->context_set_current != nullptr) {
      OwnReplayScope own(0, 0);
      (void)(*driver)->context_set_current(context);
    }
  }
  CUptiResult Enable(CUpti_PmSampling_Enable_Params* p) override { return cuptiPmSamplingEnable(p); }
  CUptiResult SetConfig(CUpti_PmSampling_SetConfig_Params* p) override {
    return cuptiPmSamplingSetConfig(p);
  }
  CUptiResult GetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params* p) override {
    return cuptiPmSamplingGetCounterDataSize(p);
  }
  CUptiResult InitializeImage(CUpti_PmSampling_CounterDataImage_Initialize_Params* p) override {
    return cuptiPmSamplingCounterDataImageInitialize(p);
  }
  CUptiResult Start(CUpti_PmSampling_Start_Params* p) override { return cuptiPmSamplingStart(p); }
  CUptiResult Stop(CUpti_PmSampling_Stop_Params* p) override { return cuptiPmSamplingStop(p); }
  CUptiResult DecodeData(CUpti_PmSampling_DecodeData_Params* p) override {
    return cuptiPmSamplingDecodeData(p);
  }
  CUptiResult GetCounterDataInfo(CUpti_PmSampling_GetCounterDataInfo_Params* p) override {
    return cuptiPmSamplingGetCounterDataInfo(p);
  }
  CUptiResult GetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p) override {
    return cuptiPmSamplingCounterDataGetSampleInfo(p);
  }
  CUptiResult Disable(CUpti_PmSampling_Disable_Params* p) override {
    return cuptiPmSamplingDisable(p);
  }
};

// CUPTI's calls, and what they gave kept for the recording file.
class RecordingCalls : public CuptiCalls {
 public:
  explicit RecordingCalls(std::string path) : path_(std::move(path)) {}

  CUptiResult GetChipName(CUpti_Device_GetChipName_Params* p) override {
    CUptiResult r = CuptiCalls::GetChipName(p);
    if (r == CUPTI_SUCCESS && p->pChipName != nullptr) recording_.chip = p->pChipName;
    return r;
  }
  CUptiResult GetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params* p) override {
    CUptiResult r = CuptiCalls::GetCounterAvailability(p);
    if (r == CUPTI_SUCCESS && p->pCounterAvailabilityImage != nullptr) {
      recording_.availability.assign(p->pCounterAvailabilityImage,
                                     p->pCounterAvailabilityImage + p->counterAvailabilityImageSize);
    }
    return r;
  }
  CUptiResult GetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params* p) override {
    CUptiResult r = CuptiCalls::GetCounterDataSize(p);
    if (r == CUPTI_SUCCESS) recording_.image_sizes.emplace_back(p->maxSamples, p->counterDataSize);
    return r;
  }
  CUptiResult InitializeImage(CUpti_PmSampling_CounterDataImage_Initialize_Params* p) override {
    CUptiResult r = CuptiCalls::InitializeImage(p);
    if (r == CUPTI_SUCCESS && recording_.initialized_image.empty()) {
      recording_.initialized_image.assign(p->pCounterData, p->pCounterData + p->counterDataSize);
    }
    return r;
  }
  CUptiResult DecodeData(CUpti_PmSampling_DecodeData_Params* p) override {
    CUptiResult r = CuptiCalls::DecodeData(p);
    if (recording_.decodes.size() < kMaxRecordedDecodes &&
        recorded_bytes_ + p->counterDataImageSize <= kMaxRecordedImageBytes) {
      recorded_bytes_ += p->counterDataImageSize;
      PmSamplingRecording::Decode& decode = recording_.decodes.emplace_back();
      decode.result = static_cast<std::int32_t>(r);
      decode.stop_reason = static_cast<std::int32_t>(p->decodeStopReason);
      decode.overflow = p->overflow;
      decode.image.assign(p->pCounterDataImage, p->pCounterDataImage + p->counterDataImageSize);
      recording_samples_ = true;
    } else {
      recording_samples_ = false;
    }
    return r;
  }
  CUptiResult GetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p) override {
    CUptiResult r = CuptiCalls::GetSampleInfo(p);
    if (recording_samples_ && !recording_.decodes.empty()) {
      std::vector<PmSamplingRecording::Sample>& samples = recording_.decodes.back().samples;
      if (p->sampleIndex >= samples.size()) samples.resize(p->sampleIndex + 1);
      samples[p->sampleIndex] = {static_cast<std::int32_t>(r), p->startTimestamp, p->endTimestamp};
    }
    return r;
  }
  CUptiResult Disable(CUpti_PmSampling_Disable_Params* p) override {
    CUptiResult r = CuptiCalls::Disable(p);
    Write();
    return r;
  }

 private:
  void Write() {
    if (written_) return;
    written_ = true;
    const std::vector<std::uint8_t> bytes = EncodePmSamplingRecording(recording_);
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (out) {
      inject::LogBanner("gpuscope: PM sampling recorded in " + path_ + " (" +
                        std::to_string(recording_.decodes.size()) + " decodes)");
    } else {
      inject::LogError("cannot write the PM sampling recording " + path_);
    }
  }

  std::string path_;
  PmSamplingRecording recording_;
  std::size_t recorded_bytes_ = 0;
  bool recording_samples_ = false;
  bool written_ = false;
};

class RecordedCalls : public PmSamplingCalls {
 public:
  explicit RecordedCalls(PmSamplingRecording recording) : recording_(std::move(recording)) {}

  CUptiResult GetChipName(CUpti_Device_GetChipName_Params* p) override {
    p->pChipName = recording_.chip.c_str();
    return CUPTI_SUCCESS;
  }
  std::string UnsupportedReason(std::uint32_t) override { return {}; }
  CUptiResult GetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params* p) override {
    if (p->pCounterAvailabilityImage != nullptr) {
      if (p->counterAvailabilityImageSize < recording_.availability.size()) {
        return CUPTI_ERROR_INVALID_PARAMETER;
      }
      std::memcpy(p->pCounterAvailabilityImage, recording_.availability.data(),
                  recording_.availability.size());
    }
    p->counterAvailabilityImageSize = recording_.availability.size();
    return CUPTI_SUCCESS;
  }
  void MakeCurrent(CUcontext) override {}
  CUptiResult Enable(CUpti_PmSampling_Enable_Params* p) override {
    p->pPmSamplingObject = reinterpret_cast<CUpti_PmSampling_Object*>(&recording_);
    return CUPTI_SUCCESS;
  }
  CUptiResult SetConfig(CUpti_PmSampling_SetConfig_Params*) override { return CUPTI_SUCCESS; }
  CUptiResult GetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params* p) override {
    for (const auto& [samples, bytes] : recording_.image_sizes) {
      if (samples == p->maxSamples) {
        p->counterDataSize = bytes;
        return CUPTI_SUCCESS;
      }
    }
    return CUPTI_ERROR_INVALID_PARAMETER;  // a size the device was never asked for
  }
  CUptiResult InitializeImage(CUpti_PmSampling_CounterDataImage_Initialize_Params* p) override {
    return Fill(p->pCounterData, p->counterDataSize, recording_.initialized_image);
  }
  CUptiResult Start(CUpti_PmSampling_Start_Params*) override { return CUPTI_SUCCESS; }
  CUptiResult Stop(CUpti_PmSampling_Stop_Params*) override { return CUPTI_SUCCESS; }
  CUptiResult DecodeData(CUpti_PmSampling_DecodeData_Params* p) override {
    if (next_ >= recording_.decodes.size()) {
      // Played out: the hardware buffer is empty from here on.
      current_ = nullptr;
      p->decodeStopReason = CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
      p->overflow = 0;
      return Fill(p->pCounterDataImage, p->counterDataImageSize, recording_.initialized_image);
    }
    current_ = &recording_.decodes[next_++];
    p->decodeStopReason = static_cast<CUpti_PmSampling_DecodeStopReason>(current_->stop_reason);
    p->overflow = current_->overflow;
    if (CUptiResult r = Fill(p->pCounterDataImage, p->counterDataImageSize, current_->image);
        r != CUPTI_SUCCESS) {
      return r;
    }
    return static_cast<CUptiResult>(current_->result);
  }
  CUptiResult GetCounterDataInfo(CUpti_PmSampling_GetCounterDataInfo_Params* p) override {
    return cuptiPmSamplingGetCounterDataInfo(p);  // host code: reads the image alone
  }
  CUptiResult GetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p) override {
    if (current_ == nullptr || p->sampleIndex >= current_->samples.size()) {
      return CUPTI_ERROR_INVALID_PARAMETER;
    }
    const PmSamplingRecording::Sample& sample = current_->samples[p->sampleIndex];
    p->startTimestamp = sample.start;
    p->endTimestamp = sample.end;
    return static_cast<CUptiResult>(sample.result);
  }
  CUptiResult Disable(CUpti_PmSampling_Disable_Params*) override { return CUPTI_SUCCESS; }

 private:
  static CUptiResult Fill(std::uint8_t* image, std::size_t size,
                          const std::vector<std::uint8_t>& recorded) {
    if (image == nullptr || size != recorded.size()) return CUPTI_ERROR_INVALID_PARAMETER;
    std::memcpy(image, recorded.data(), size);
    return CUPTI_SUCCESS;
  }

  PmSamplingRecording recording_;
  std::size_t next_ = 0;
  const PmSamplingRecording::Decode* current_ = nullptr;
};

}  // namespace

std::unique_ptr<PmSamplingCalls> MakeCuptiPmSamplingCalls(const std::string& record_path,
                                                         std::uint32_t device_id) {
  if (record_path.empty()) return std::make_unique<CuptiCalls>();
  return std::make_unique<RecordingCalls>(record_path + "." + std::to_string(device_id));
}

std::unique_ptr<PmSamplingCalls> MakeRecordedPmSamplingCalls(PmSamplingRecording recording) {
  return std::make_unique<RecordedCalls>(std::move(recording));
}

}  // namespace gpuscope::cupti
