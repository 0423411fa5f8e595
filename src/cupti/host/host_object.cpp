#include "cupti/host/host_object.h"

#include <cupti_result.h>
#include <dlfcn.h>

#include <mutex>

namespace gpuscope::cupti::host {
namespace {

std::string OrEmpty(const char* text) { return text ? text : ""; }

// libcupti dlopens "libnvperf_host.so" by bare name, which searches libcupti's own (empty)
// RUNPATH, LD_LIBRARY_PATH and the ld cache, but not the RUNPATH of our executable. Loading it
// first from libcupti's directory makes that dlopen find it by soname, so `gpuscope profile
// --query-metrics` works without LD_LIBRARY_PATH. Best effort: if it fails, CUPTI's own search
// runs and its error is reported.
void PreloadNvperfHost() {
  static std::once_flag once;
  std::call_once(once, [] {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&cuptiProfilerHostInitialize), &info) == 0 ||
        !info.dli_fname) {
      return;
    }
    std::string cupti_path = info.dli_fname;
    std::size_t slash = cupti_path.rfind('/');
    if (slash == std::string::npos) return;
    std::string nvperf_path = cupti_path.substr(0, slash + 1) + "libnvperf_host.so";
    // With CUPTI's own RTLD_DEEPBIND (the flag AddressSanitizer showed CUPTI passing): the
    // first dlopen decides how a library binds, and nvperf_host exports 232 NVPW_* functions
    // that libnvperf_target exports too. Loaded by us first without it (the PM sampler builds
    // its host object after CUPTI loaded nvperf_target), nvperf_host's calls of its own
    // functions could go to nvperf_target's: `run --gpu-metrics` programs died at exit of heap
    // corruption found in the writer's frees, every run at 200 kHz (H100, 2026-12-07).
    // Kept loaded for the process. (AddressSanitizer refuses RTLD_DEEPBIND: its builds run
    // only GPU-free tests, where no libnvperf_target is loaded for nvperf_host to mix with.)
#if defined(__SANITIZE_ADDRESS__)
    constexpr int kBinding = 0;
#else
    constexpr int kBinding = RTLD_DEEPBIND;
#endif
    (void)dlopen(nvperf_path.c_str(), RTLD_NOW | RTLD_LOCAL | kBinding);
  });
}

}  // namespace

Status HostCuptiStatus(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return Status();
  const char* name = nullptr;
  std::string text = cuptiGetResultString(result, &name) == CUPTI_SUCCESS && name
                         ? name
                         : "CUPTI error " + std::to_string(static_cast<int>(result));
  return Status::Error(std::string(what) + ": " + text);
}

HostObject::~HostObject() {
  auto params = ZeroedParams<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  (void)cuptiProfilerHostDeinitialize(&params);  // nothing to do about a failure here
}

StatusOr<std::vector<std::string>> HostObject::SupportedChips() {
  PreloadNvperfHost();
  auto params = ZeroedParams<CUpti_Profiler_Host_GetSupportedChips_Params>(
      CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE);
  GPUSCOPE_RETURN_IF_ERROR(
      HostCuptiStatus(cuptiProfilerHostGetSupportedChips(&params), "cannot list CUPTI's chips"));
  std::vector<std::string> chips;
  for (std::size_t i = 0; i < params.numChips; ++i) chips.push_back(OrEmpty(params.ppChipNames[i]));
  return chips;
}

StatusOr<std::unique_ptr<HostObject>> HostObject::Create(
    const std::string& chip, CUpti_ProfilerType type,
    std::span<const std::uint8_t> counter_availability) {
  PreloadNvperfHost();
  auto params = ZeroedParams<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  params.profilerType = type;
  params.pChipName = chip.c_str();
  params.pCounterAvailabilityImage =
      counter_availability.empty() ? nullptr : counter_availability.data();
  std::string what = "cannot initialise CUPTI's profiler host for " + chip;
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiProfilerHostInitialize(&params), what.c_str()));
  if (!params.pHostObject) return Status::Error(what + ": CUPTI returned no object");
  return std::unique_ptr<HostObject>(new HostObject(params.pHostObject));
}

StatusOr<std::vector<std::string>> HostObject::BaseMetrics(CUpti_MetricType type) {
  auto params = ZeroedParams<CUpti_Profiler_Host_GetBaseMetrics_Params>(
      CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.metricType = type;
  GPUSCOPE_RETURN_IF_ERROR(
      HostCuptiStatus(cuptiProfilerHostGetBaseMetrics(&params), "cannot list base metrics"));
  std::vector<std::string> names;
  names.reserve(params.numMetrics);
  for (std::size_t i = 0; i < params.numMetrics; ++i)
    names.push_back(OrEmpty(params.ppMetricNames[i]));
  return names;
}

StatusOr<std::vector<std::string>> HostObject::SubMetrics(CUpti_MetricType type,
                                                          const std::string& base) {
  auto params = ZeroedParams<CUpti_Profiler_Host_GetSubMetrics_Params>(
      CUpti_Profiler_Host_GetSubMetrics_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.metricType = type;
  params.pMetricName = base.c_str();
  std::string what = "cannot list the sub-metrics of " + base;
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiProfilerHostGetSubMetrics(&params), what.c_str()));
  std::vector<std::string> suffixes;
  for (std::size_t i = 0; i < params.numOfSubmetrics; ++i) {
    suffixes.push_back(OrEmpty(params.ppSubMetrics[i]));
  }
  return suffixes;
}

StatusOr<CuptiMetricProperties> HostObject::Properties(const std::string& name) {
  auto params = ZeroedParams<CUpti_Profiler_Host_GetMetricProperties_Params>(
      CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.pMetricName = name.c_str();
  std::string what = "cannot describe metric " + name;
  GPUSCOPE_RETURN_IF_ERROR(
      HostCuptiStatus(cuptiProfilerHostGetMetricProperties(&params), what.c_str()));
  return CuptiMetricProperties{OrEmpty(params.pDescription), OrEmpty(params.pHwUnit),
                               OrEmpty(params.pDimUnit), params.metricType};
}

Status HostObject::AddMetrics(const std::vector<std::string>& names) {
  std::vector<const char*> pointers;
  pointers.reserve(names.size());
  for (const std::string& name : names) pointers.push_back(name.c_str());
  auto params = ZeroedParams<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.ppMetricNames = pointers.data();
  params.numMetrics = pointers.size();
  return HostCuptiStatus(cuptiProfilerHostConfigAddMetrics(&params),
                         "CUPTI cannot configure the metrics");
}

StatusOr<std::vector<std::uint8_t>> HostObject::ConfigImage() {
  auto size_params = ZeroedParams<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size_params.pHostObject = object_;
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiProfilerHostGetConfigImageSize(&size_params),
                                           "cannot size the config image"));
  std::vector<std::uint8_t> image(size_params.configImageSize);
  auto params = ZeroedParams<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.configImageSize = image.size();
  params.pConfigImage = image.data();
  GPUSCOPE_RETURN_IF_ERROR(
      HostCuptiStatus(cuptiProfilerHostGetConfigImage(&params), "cannot build the config image"));
  return image;
}

CUptiResult HostObject::Evaluate(std::span<const std::uint8_t> counter_data, std::size_t range,
                                 const std::vector<const char*>& names, double* values) {
  auto params = ZeroedParams<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  params.pHostObject = object_;
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  params.rangeIndex = range;
  // CUPTI's parameter is not const-qualified but only reads the names.
  params.ppMetricNames = const_cast<const char**>(names.data());
  params.numMetrics = names.size();
  params.pMetricValues = values;
  return cuptiProfilerHostEvaluateToGpuValues(&params);
}

StatusOr<std::uint32_t> ConfigImagePasses(std::vector<std::uint8_t>& config_image) {
  auto params = ZeroedParams<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  params.configImageSize = config_image.size();
  params.pConfigImage = config_image.data();
  GPUSCOPE_RETURN_IF_ERROR(HostCuptiStatus(cuptiProfilerHostGetNumOfPasses(&params),
                                           "cannot count the passes of the config image"));
  return static_cast<std::uint32_t>(params.numOfPasses);
}

}  // namespace gpuscope::cupti::host
