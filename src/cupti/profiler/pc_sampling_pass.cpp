#include "cupti/profiler/pc_sampling_pass.h"

#include <algorithm>
#include <cstdlib>

#include "cupti/common/cupti_error.h"

namespace gpuscope::cupti {
namespace {

// PCs fetched per GetData call; more are fetched in further calls.
constexpr std::size_t kPcsPerFetch = 4096;

void Prepare(CUpti_PCSamplingData& data, std::vector<CUpti_PCSamplingPCData>& pcs,
             std::vector<std::vector<CUpti_PCSamplingStallReason>>& reasons,
             std::size_t num_reasons) {
  pcs.assign(kPcsPerFetch, CUpti_PCSamplingPCData{});
  reasons.assign(kPcsPerFetch, std::vector<CUpti_PCSamplingStallReason>(num_reasons));
  for (std::size_t i = 0; i < kPcsPerFetch; ++i) {
    pcs[i].size = sizeof(CUpti_PCSamplingPCData);
    pcs[i].stallReason = reasons[i].data();
  }
  data = CUpti_PCSamplingData{};
  data.size = sizeof(CUpti_PCSamplingData);
  data.collectNumPcs = kPcsPerFetch;
  data.pPcData = pcs.data();
}

}  // namespace

PcSamplingPass::~PcSamplingPass() { Disable(); }

Status PcSamplingPass::Enable() {
  CUpti_PCSamplingEnableParams enable{};
  enable.size = CUpti_PCSamplingEnableParamsSize;
  enable.ctx = context_;
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiPCSamplingEnable(&enable), "cuptiPCSamplingEnable"));
  enabled_ = true;
  std::size_t count = 0;
  CUpti_PCSamplingGetNumStallReasonsParams number{};
  number.size = CUpti_PCSamplingGetNumStallReasonsParamsSize;
  number.ctx = context_;
  number.numStallReasons = &count;
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiPCSamplingGetNumStallReasons(&number),
                                       "cuptiPCSamplingGetNumStallReasons"));
  std::vector<std::vector<char>> names(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
  std::vector<char*> name_pointers;
  for (auto& name : names) name_pointers.push_back(name.data());
  reason_indices_.assign(count, 0);
  CUpti_PCSamplingGetStallReasonsParams reasons{};
  reasons.size = CUpti_PCSamplingGetStallReasonsParamsSize;
  reasons.ctx = context_;
  reasons.numStallReasons = count;
  reasons.stallReasonIndex = reason_indices_.data();
  reasons.stallReasons = name_pointers.data();
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiPCSamplingGetStallReasons(&reasons),
                                       "cuptiPCSamplingGetStallReasons"));
  reason_names_.clear();
  for (auto& name : names) reason_names_.emplace_back(name.data());

  Prepare(config_buffer_, config_pcs_, config_reasons_, count);
  Prepare(data_, data_pcs_, data_reasons_, count);
  CUpti_PCSamplingConfigurationInfo info[6] = {};
  info[0].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER;
  info[0].attributeData.samplingDataBufferData.samplingDataBuffer = &config_buffer_;
  // Serialized: the samples belong to the one launch, not to whatever ran beside it.
  info[1].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE;
  info[1].attributeData.collectionModeData.collectionMode =
      CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
  info[2].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD;
  info[2].attributeData.samplingPeriodData.samplingPeriod = kSamplingPeriod;
  info[3].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON;
  info[3].attributeData.stallReasonData.stallReasonCount = count;
  info[3].attributeData.stallReasonData.pStallReasonIndex = reason_indices_.data();
  info[4].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL;
  info[4].attributeData.enableStartStopControlData.enableStartStopControl = 1;
  CUpti_PCSamplingConfigurationInfoParams configure{};
  configure.size = CUpti_PCSamplingConfigurationInfoParamsSize;
  configure.ctx = context_;
  // 32 MiB instead of CUPTI's 512 MiB: enabling took 0.13 s instead of 0.4-1 s (H100,
  // 2026-11-25), and sampling is enabled per launch (source_passes.h).
  info[5].attributeType = CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_HARDWARE_BUFFER_SIZE;
  info[5].attributeData.hardwareBufferSizeData.hardwareBufferSize = kHardwareBufferBytes;
  configure.numAttributes = 6;
  configure.pPCSamplingConfigurationInfo = info;
  return CuptiStatus(cuptiPCSamplingSetConfigurationAttribute(&configure),
                     "cuptiPCSamplingSetConfigurationAttribute");
}

void PcSamplingPass::Disable() {
  if (!enabled_) return;
  enabled_ = false;
  CUpti_PCSamplingDisableParams disable{};
  disable.size = CUpti_PCSamplingDisableParamsSize;
  disable.ctx = context_;
  cuptiPCSamplingDisable(&disable);
}

Status PcSamplingPass::Run(const std::function<Status()>& launch_and_wait,
                           inject::OwnedSourceCounters& out) {
  if (!enabled_) {
    Status enabled = Enable();
    if (!enabled.ok()) {
      Disable();
      return enabled;
    }
  }
  CUpti_PCSamplingStartParams start{};
  start.size = CUpti_PCSamplingStartParamsSize;
  start.ctx = context_;
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiPCSamplingStart(&start), "cuptiPCSamplingStart"));
  Status launched = launch_and_wait();
  CUpti_PCSamplingStopParams stop{};
  stop.size = CUpti_PCSamplingStopParamsSize;
  stop.ctx = context_;
  Status stopped = CuptiStatus(cuptiPCSamplingStop(&stop), "cuptiPCSamplingStop");
  Status collected = launched.ok() && stopped.ok() ? Collect(out) : Status();
  Disable();
  if (!launched.ok()) return launched;
  GPUSCOPE_RETURN_IF_ERROR(stopped);
  return collected;
}

Status PcSamplingPass::Collect(inject::OwnedSourceCounters& out) {
  out.sampling_period = kSamplingPeriod;
  // Bounded: each call returns up to kPcsPerFetch PCs; a kernel has far fewer fetches.
  for (int fetch = 0; fetch < 100000; ++fetch) {
    CUpti_PCSamplingGetDataParams get{};
    get.size = CUpti_PCSamplingGetDataParamsSize;
    get.ctx = context_;
    get.pcSamplingData = &data_;
    GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiPCSamplingGetData(&get), "cuptiPCSamplingGetData"));
    // Totals of the range, repeated by each fetch: kept once.
    out.total_samples = std::max<std::uint64_t>(out.total_samples, data_.totalSamples);
    out.dropped_samples = std::max<std::uint64_t>(out.dropped_samples, data_.droppedSamples);
    for (std::size_t i = 0; i < data_.totalNumPcs; ++i) {
      CUpti_PCSamplingPCData& pc = data_.pPcData[i];
      const std::string_view function =
          out.Name(pc.functionName != nullptr ? pc.functionName : "");
      for (std::size_t k = 0; k < pc.stallReasonCount; ++k) {
        const CUpti_PCSamplingStallReason& reason = pc.stallReason[k];
        if (reason.samples == 0) continue;
        std::string_view name;
        for (std::size_t r = 0; r < reason_indices_.size(); ++r) {
          if (reason_indices_[r] == reason.pcSamplingStallReasonIndex) name = reason_names_[r];
        }
        if (name.empty()) continue;
        out.values.push_back({pc.cubinCrc, function, pc.pcOffset, out.Name(name), reason.samples});
      }
      // The name is not freed: CUPTI shares one string among all records of a function
      // (cupti_pcsampling.h), also across fetches, so freeing per PC was a double free (H100,
      // 2026-11-25). One small string per sampled function is the cost.
    }
    if (data_.remainingNumPcs == 0) break;
  }
  return Status();
}

}  // namespace gpuscope::cupti
