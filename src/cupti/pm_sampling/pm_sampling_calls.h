// The CUPTI calls PM sampling makes on one device (pm_sampling_device.h), behind one interface:
//   CuptiPmSamplingCalls      CUPTI's own, on the GPU;
//   RecordingPmSamplingCalls  CUPTI's own, writing what the device gave (its chip, counter
//                             availability, image sizes, every decoded counter-data image and
//                             its samples' times) to a recording file when sampling ends
//                             (GPUSCOPE_PM_SAMPLING_RECORD; scripts/record-report-fixtures.sh);
//   RecordedPmSamplingCalls   a recording played back without a GPU, so that the sampler's
//                             device code, the host evaluation of real images and the accounting
//                             run in the GPU-free tests (under the sanitizers in CI too).
// The host side (cupti/host: catalog, config images, evaluation) is CUPTI's own in all three:
// it needs no GPU. The parameter structs are CUPTI's, filled as CUPTI would fill them.
#pragma once

#include <cuda.h>
#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_target.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cupti/pm_sampling/pm_sampling_recording.h"

namespace gpuscope::cupti {

class PmSamplingCalls {
 public:
  virtual ~PmSamplingCalls() = default;
  virtual CUptiResult GetChipName(CUpti_Device_GetChipName_Params* params) = 0;
  // Why the device cannot be sampled at all (vGPU, WSL, ...), or empty.
  virtual std::string UnsupportedReason(std::uint32_t device_id) = 0;
  virtual CUptiResult GetCounterAvailability(CUpti_PmSampling_GetCounterAvailability_Params* params) = 0;
  // The device's context current on this thread (a call of gpuscope's own, left out of the trace).
  virtual void MakeCurrent(CUcontext context) = 0;
  virtual CUptiResult Enable(CUpti_PmSampling_Enable_Params* params) = 0;
  virtual CUptiResult SetConfig(CUpti_PmSampling_SetConfig_Params* params) = 0;
  virtual CUptiResult GetCounterDataSize(CUpti_PmSampling_GetCounterDataSize_Params* params) = 0;
  virtual CUptiResult InitializeImage(
      CUpti_PmSampling_CounterDataImage_Initialize_Params* params) = 0;
  virtual CUptiResult Start(CUpti_PmSampling_Start_Params* params) = 0;
  virtual CUptiResult Stop(CUpti_PmSampling_Stop_Params* params) = 0;
  virtual CUptiResult DecodeData(CUpti_PmSampling_DecodeData_Params* params) = 0;
  virtual CUptiResult GetCounterDataInfo(CUpti_PmSampling_GetCounterDataInfo_Params* params) = 0;
  virtual CUptiResult GetSampleInfo(CUpti_PmSampling_CounterData_GetSampleInfo_Params* params) = 0;
  virtual CUptiResult Disable(CUpti_PmSampling_Disable_Params* params) = 0;
};

// CUPTI's calls; with a non-empty `record_path`, recorded into that file (".<device>" appended)
// when sampling is disabled. Recording keeps at most kMaxRecordedDecodes decodes and
// kMaxRecordedImageBytes of images (held in memory until then: 64 MiB an image at most).
inline constexpr std::size_t kMaxRecordedDecodes = 64;
inline constexpr std::size_t kMaxRecordedImageBytes = std::size_t{512} << 20;
std::unique_ptr<PmSamplingCalls> MakeCuptiPmSamplingCalls(const std::string& record_path,
                                                         std::uint32_t device_id);

// Plays `recording` back: DecodeData hands out its decodes in order (then images without
// samples), GetSampleInfo their samples' times; the counter-data image itself is read by
// CUPTI's host code as on the GPU. Enable, SetConfig, Start, Stop and Disable succeed.
std::unique_ptr<PmSamplingCalls> MakeRecordedPmSamplingCalls(PmSamplingRecording recording);

}  // namespace gpuscope::cupti
