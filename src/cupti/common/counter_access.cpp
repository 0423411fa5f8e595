#include "cupti/common/counter_access.h"

#include <cupti_profiler_target.h>

#include "cupti/common/cupti_error.h"
#include "cupti/common/cupti_params.h"

namespace gpuscope::cupti {
namespace {

// NVIDIA's page on counter permissions, printed with every "cannot read counters" message.
constexpr const char* kCounterPermissionUrl = "https://developer.nvidia.com/ERR_NVGPUCTRPERM";

}  // namespace

bool IsUnavailable(CUptiResult result) {
  return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
         result == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
         result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES ||
         result == CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED || result == CUPTI_ERROR_HARDWARE_BUSY ||
         result == CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED ||
         result == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED ||
         result == CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED;
}

std::string UnavailableMessage(CUptiResult result, const std::string& what) {
  std::string message =
      "cannot read the GPU's performance counters (" + what + ": " + CuptiResultName(result) + ")";
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
      return message +
             ": the driver lets only administrators read them; run as root or set "
             "NVreg_RestrictProfilingToAdminUsers=0, see " +
             kCounterPermissionUrl;
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      return message +
             ": this virtual GPU does not expose them (ask the host to enable "
             "profiling for the vGPU), see " +
             kCounterPermissionUrl;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
      return message +
             ": counters are not available on a MIG instance; profile on a GPU "
             "without MIG";
    case CUPTI_ERROR_HARDWARE_BUSY:
      return message +
             ": another tool holds them (Nsight Compute, DCGM profiling, "
             "nv-hostengine); stop it and run again";
    default:
      return message;
  }
}

ProfileFailure FailureOf(CUptiResult result, const std::string& what) {
  if (IsUnavailable(result)) {
    return {UnavailableMessage(result, what), model::ProfileOutcome::kCountersUnavailable};
  }
  return {what + " failed: " + CuptiResultName(result), model::ProfileOutcome::kReplayFailed};
}

std::string UnsupportedDeviceReason(std::uint32_t device_id, ProfilerApi api) {
  auto params = Params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  params.cuDevice = static_cast<CUdevice>(device_id);
  params.api = api == ProfilerApi::kPmSampling ? CUPTI_PROFILER_PM_SAMPLING
                                               : CUPTI_PROFILER_RANGE_PROFILING;
  if (cuptiProfilerDeviceSupported(&params) != CUPTI_SUCCESS) return {};  // unknown: try
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return {};
  auto no = [](CUpti_Profiler_Support_Level level) {
    return level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED &&
           level != CUPTI_PROFILER_CONFIGURATION_UNKNOWN;
  };
  std::string reason = "device " + std::to_string(device_id) +
                       (api == ProfilerApi::kPmSampling ? " cannot be PM-sampled: "
                                                        : " cannot be profiled: ");
  if (no(params.architecture)) {
    return reason + (api == ProfilerApi::kPmSampling
                         ? "its architecture is older than Turing (CC 7.5)"
                         : "its architecture is older than Volta (CC 7.0)");
  }
  if (no(params.vGpu)) {
    return reason + "profiling is disabled for this virtual GPU (ask the host to enable it), see " +
           kCounterPermissionUrl;
  }
  if (no(params.confidentialCompute)) return reason + "confidential computing is on";
  if (no(params.sli)) return reason + "SLI is enabled";
  if (no(params.cmp)) return reason + "it is a Crypto Mining Processor";
  if (no(params.wsl)) return reason + "this WSL version does not support profiling";
  return reason + "CUPTI says it is unsupported";
}

}  // namespace gpuscope::cupti
