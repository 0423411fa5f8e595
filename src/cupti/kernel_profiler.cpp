#include "cupti/kernel_profiler.h"

#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "inject/app_replay_store.h"
#include "cupti/activity.h"
#include "cupti/cupti_error.h"
#include "cupti/host/metric_host.h"
#include "inject/log.h"
#include "util/demangle.h"
#include "util/kernel_filter.h"

namespace gpuscope::inject::cupti {
namespace {

// NVIDIA's page on counter permissions, printed with every "cannot read counters" message.
constexpr const char* kCounterPermissionUrl = "https://developer.nvidia.com/ERR_NVGPUCTRPERM";

// CUPTI's parameter structs: zeroed, with their size set.
template <typename T>
T Params(std::size_t struct_size) {
  T params{};
  params.structSize = struct_size;
  return params;
}

struct LaunchCallback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
};

// Every call that launches one kernel. CUDA 13's <<<>>> goes through __cudaLaunchKernel.
// Graph launches are not here: their kernels run as one graph (measured per node only by
// kernel-level replay of the graph, which CUPTI does not offer in auto range mode).
constexpr LaunchCallback kLaunchCallbacks[] = {
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000},
    {CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel},
    {CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz},
};

// The stream a launch call names, for --kernel-id; nullopt where the parameters are not
// published (__cudaLaunchKernel) or not readable.
struct StreamArgument {
  void* stream = nullptr;
  bool per_thread = false;
};

std::optional<StreamArgument> StreamOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                       const void* params) {
  if (params == nullptr) return std::nullopt;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    switch (cbid) {
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
        return StreamArgument{static_cast<const cudaLaunchKernel_v7000_params*>(params)->stream};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
        return StreamArgument{
            static_cast<const cudaLaunchKernel_ptsz_v7000_params*>(params)->stream, true};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
        return StreamArgument{
            static_cast<const cudaLaunchCooperativeKernel_v9000_params*>(params)->stream};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
        return StreamArgument{
            static_cast<const cudaLaunchCooperativeKernel_ptsz_v9000_params*>(params)->stream,
            true};
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060: {
        const auto* p = static_cast<const cudaLaunchKernelExC_v11060_params*>(params);
        if (p->config == nullptr) return std::nullopt;
        return StreamArgument{p->config->stream};
      }
      case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060: {
        const auto* p = static_cast<const cudaLaunchKernelExC_ptsz_v11060_params*>(params);
        if (p->config == nullptr) return std::nullopt;
        return StreamArgument{p->config->stream, true};
      }
      default:
        return std::nullopt;
    }
  }
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      return StreamArgument{static_cast<const cuLaunchKernel_params*>(params)->hStream};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return StreamArgument{static_cast<const cuLaunchKernel_ptsz_params*>(params)->hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return StreamArgument{static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return StreamArgument{
          static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->hStream, true};
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(params);
      if (p->config == nullptr) return std::nullopt;
      return StreamArgument{p->config->hStream};
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_ptsz_params*>(params);
      if (p->config == nullptr) return std::nullopt;
      return StreamArgument{p->config->hStream, true};
    }
    default:
      return std::nullopt;
  }
}

// The range profiler of one context, set up at its first selected launch.
struct ContextProfiler {
  CUcontext context = nullptr;
  bool disabled = false;  // disabled for good: CUPTI must never enable it twice
  std::uint32_t device_id = 0;
  std::string chip;
  std::uint32_t passes = 0;
  CUpti_RangeProfiler_Object* object = nullptr;
  std::vector<std::uint8_t> counter_data;
  // Empty while usable; else why this context's launches cannot be measured.
  std::string failure;
  model::ProfileOutcome failure_outcome = model::ProfileOutcome::kReplayFailed;
};

// A config image per chip: the host API is slow to build one (tens of ms).
struct ChipConfig {
  Status status;
  metric_host::ConfigImage image;
};

struct ProfilerState {
  ProfilerState(const ProfileConfig& config, KernelProfilerHooks hooks)
      : config(config), selector(config.filter), hooks(std::move(hooks)) {}

  const ProfileConfig config;
  KernelSelector selector;
  KernelProfilerHooks hooks;
  std::vector<const char*> metric_names;  // views into config.metrics, for CUPTI
  // Serialises measurements and guards everything below.
  std::mutex mutex;
  std::map<std::string, ChipConfig> chip_configs;
  std::unordered_map<CUcontext, std::unique_ptr<ContextProfiler>> contexts;
  bool said_unavailable = false;
  bool profiler_initialized = false;
  // Launches selected but not yet measured (another thread may wait for the lock with one):
  // the profiler is disabled only when none is left and none can come.
  std::atomic<int> pending_selected{0};
};

ProfilerState* g_state = nullptr;  // set once by StartKernelProfiler, never freed

// What one thread carries from a launch's enter callback to its exit callback.
struct LaunchInFlight {
  int depth = 0;  // launch calls nested on this thread (a runtime call's driver call)
  // The launch was decided on (selected or not) at some depth of this call. Undecided: the
  // outer call could not tell (no context yet: the runtime creates it inside its first launch;
  // or a stream the filter needs that __cudaLaunchKernel does not publish), so the nested
  // driver call decides.
  bool decided = false;
  std::uint32_t outer_correlation_id = 0;  // the runtime call's: the kernel record carries it
  bool measuring = false;
  int measure_depth = 0;  // the depth whose exit ends the measurement
  ContextProfiler* context = nullptr;
  OwnedProfiledKernel kernel;
  std::unique_lock<std::mutex> lock;
};
// Never destroyed: a launch from a static destructor at exit must not meet a destroyed
// object (thread-local destructors run before atexit handlers).
thread_local LaunchInFlight* t_launch_storage = nullptr;
LaunchInFlight& ThisThreadsLaunch() {
  if (t_launch_storage == nullptr) t_launch_storage = new LaunchInFlight();
  return *t_launch_storage;
}

std::string Hex(CUptiResult result) { return CuptiResultName(result); }

using SteadyClock = std::chrono::steady_clock;

// "12.3 ms" since `start`, for the debug log (where the time of a profile goes).
std::string Elapsed(SteadyClock::time_point start) {
  const double ms = std::chrono::duration<double, std::milli>(SteadyClock::now() - start).count();
  char text[32];
  std::snprintf(text, sizeof(text), "%.1f ms", ms);
  return text;
}

// "counters unavailable" messages carry the cause and the fix.
std::string UnavailableMessage(CUptiResult result, const std::string& what) {
  std::string message =
      "cannot read the GPU's performance counters (" + what + ": " + Hex(result) + ")";
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

bool IsUnavailable(CUptiResult result) {
  return result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES ||
         result == CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED ||
         result == CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES ||
         result == CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED || result == CUPTI_ERROR_HARDWARE_BUSY ||
         result == CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED ||
         result == CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED ||
         result == CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED;
}

void Fail(ContextProfiler& context, CUptiResult result, const std::string& what) {
  if (IsUnavailable(result)) {
    context.failure = UnavailableMessage(result, what);
    context.failure_outcome = model::ProfileOutcome::kCountersUnavailable;
  } else {
    context.failure = what + " failed: " + Hex(result);
    context.failure_outcome = model::ProfileOutcome::kReplayFailed;
  }
}

// Why the device cannot be profiled at all, or empty.
std::string UnsupportedDeviceReason(std::uint32_t device_id) {
  auto params = Params<CUpti_Profiler_DeviceSupported_Params>(
      CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE);
  params.cuDevice = static_cast<CUdevice>(device_id);
  params.api = CUPTI_PROFILER_RANGE_PROFILING;
  if (cuptiProfilerDeviceSupported(&params) != CUPTI_SUCCESS) return {};  // unknown: try
  if (params.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return {};
  auto no = [](CUpti_Profiler_Support_Level level) {
    return level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED &&
           level != CUPTI_PROFILER_CONFIGURATION_UNKNOWN;
  };
  std::string reason = "device " + std::to_string(device_id) + " cannot be profiled: ";
  if (no(params.architecture)) return reason + "its architecture is older than Volta (CC 7.0)";
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

const ChipConfig& ConfigFor(ProfilerState& state, const std::string& chip) {
  auto it = state.chip_configs.find(chip);
  if (it != state.chip_configs.end()) return it->second;
  ChipConfig config;
  // The CLI built the image for the chip it checked the names on: reading it costs nothing,
  // building it again here would cost hundreds of milliseconds inside the program's launch.
  if (chip == state.config.prebuilt_chip && !state.config.prebuilt_config.empty()) {
    config.image.bytes = state.config.prebuilt_config;
    config.image.passes = state.config.prebuilt_passes;
    return state.chip_configs.emplace(chip, std::move(config)).first->second;
  }
  const SteadyClock::time_point started = SteadyClock::now();
  StatusOr<std::unique_ptr<metric_host::MetricHost>> host = metric_host::MetricHost::Open(chip);
  if (!host.ok()) {
    config.status = host.status();
  } else {
    StatusOr<metric_host::ConfigImage> image = (*host)->MakeConfig(state.config.metrics);
    if (image.ok()) {
      config.image = std::move(*image);
    } else {
      config.status = image.status();
    }
  }
  LogDebug("config image for " + chip + " built in " + Elapsed(started));
  return state.chip_configs.emplace(chip, std::move(config)).first->second;
}

// First selected launch in `ctx`: everything that is done once per context.
ContextProfiler& PrepareContext(ProfilerState& state, CUcontext ctx, std::uint32_t device_id) {
  auto found = state.contexts.find(ctx);
  if (found != state.contexts.end()) return *found->second;
  const SteadyClock::time_point started = SteadyClock::now();
  auto owned = std::make_unique<ContextProfiler>();
  ContextProfiler& context = *owned;
  state.contexts.emplace(ctx, std::move(owned));
  context.device_id = device_id;
  if (!state.profiler_initialized) {
    auto init =
        Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    if (CUptiResult r = cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS) {
      Fail(context, r, "cuptiProfilerInitialize");
      return context;
    }
    state.profiler_initialized = true;
    LogDebug("cuptiProfilerInitialize: " + Elapsed(started));
  }

  if (std::string reason = UnsupportedDeviceReason(device_id); !reason.empty()) {
    context.failure = reason;
    context.failure_outcome = model::ProfileOutcome::kCountersUnavailable;
    return context;
  }
  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = device_id;
  if (CUptiResult r = cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS || !chip.pChipName) {
    Fail(context, r, "cuptiDeviceGetChipName");
    return context;
  }
  context.chip = chip.pChipName;
  // The counters' availability is where a permission problem shows first (notes 6.1).
  auto availability = Params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  availability.ctx = ctx;
  if (CUptiResult r = cuptiProfilerGetCounterAvailability(&availability); r != CUPTI_SUCCESS) {
    Fail(context, r, "cuptiProfilerGetCounterAvailability");
    return context;
  }
  LogDebug("device checks and counter availability: " + Elapsed(started));
  const ChipConfig& config = ConfigFor(state, context.chip);
  if (!config.status.ok()) {
    context.failure =
        "cannot configure the metrics for " + context.chip + ": " + config.status.message();
    return context;
  }
  context.passes = config.image.passes;
  context.context = ctx;
  LogDebug("profiling on device " + std::to_string(device_id) + " (" + context.chip + ", " +
           std::to_string(context.passes) + " passes) ready after " + Elapsed(started));
  return context;
}

// The range profiler is enabled at the first measurement of a context and disabled once no
// launch can be selected any more (--launch-count reached): while it is enabled, CUPTI slows
// every launch of the context, selected or not (~15 us per small launch on the H200). It is
// never enabled twice: cuptiRangeProfilerEnable after a Disable on the same context crashed
// CUPTI 2025.3.1 in the next SetConfig (H200, 2026-11-21).
CUptiResult EnableProfiler(ProfilerState& state, ContextProfiler& context, std::string& what) {
  if (context.object != nullptr) return CUPTI_SUCCESS;
  if (context.disabled) {
    what =
        "re-enabling the range profiler of this context (disabled after the last selected "
        "launch)";
    return CUPTI_ERROR_INVALID_OPERATION;
  }
  auto enable =
      Params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = context.context;
  what = "cuptiRangeProfilerEnable";
  if (CUptiResult r = cuptiRangeProfilerEnable(&enable); r != CUPTI_SUCCESS) return r;
  context.object = enable.pRangeProfilerObject;
  if (!context.counter_data.empty()) return CUPTI_SUCCESS;
  auto size = Params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  size.pRangeProfilerObject = context.object;
  size.pMetricNames = state.metric_names.data();
  size.numMetrics = state.metric_names.size();
  size.maxNumOfRanges = 1;  // one launch per image: decoded and stored after each launch
  size.maxNumRangeTreeNodes = 1;
  what = "cuptiRangeProfilerGetCounterDataSize";
  if (CUptiResult r = cuptiRangeProfilerGetCounterDataSize(&size); r != CUPTI_SUCCESS) return r;
  context.counter_data.assign(size.counterDataSize, 0);
  LogDebug("counter data: " + std::to_string(size.counterDataSize) + " bytes per kernel");
  return CUPTI_SUCCESS;
}

void DisableProfiler(ContextProfiler& context) {
  if (context.object == nullptr) return;
  auto disable =
      Params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  disable.pRangeProfilerObject = context.object;
  if (CUptiResult r = cuptiRangeProfilerDisable(&disable); r != CUPTI_SUCCESS) {
    LogDebug("cuptiRangeProfilerDisable: " + Hex(r));
  }
  context.object = nullptr;
  context.disabled = true;
}

// Before the launch: a fresh image, the configuration, and Start.
// Application replay: the pass of this run continues the image the previous run left.
bool IsApplicationReplay(const ProfilerState& state) {
  return state.config.replay_mode == model::ReplayMode::kApplication;
}

CUptiResult BeginMeasurement(ProfilerState& state, ContextProfiler& context,
                             const OwnedProfiledKernel& kernel, std::string& what,
                             std::string& failure) {
  const SteadyClock::time_point started = SteadyClock::now();
  if (CUptiResult r = EnableProfiler(state, context, what); r != CUPTI_SUCCESS) return r;
  LogDebug("range profiler enabled: " + Elapsed(started));
  AppReplayStep step;
  if (IsApplicationReplay(state) && state.config.app_pass > 0) {
    Status loaded =
        AppReplayStore(state.config.app_dir)
            .Load(kernel.record.profile_index, kernel.mangled_name, context.counter_data, step);
    if (!loaded.ok()) {
      failure = loaded.message();
      return CUPTI_SUCCESS;
    }
  }
  auto init = Params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  init.pRangeProfilerObject = context.object;
  init.counterDataSize = context.counter_data.size();
  init.pCounterData = context.counter_data.data();
  what = "cuptiRangeProfilerCounterDataImageInitialize";
  const bool fresh_image = !IsApplicationReplay(state) || state.config.app_pass == 0;
  if (fresh_image) {
    if (CUptiResult r = cuptiRangeProfilerCounterDataImageInitialize(&init); r != CUPTI_SUCCESS) {
      return r;
    }
  }
  const ChipConfig& config = state.chip_configs.at(context.chip);
  auto set = Params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = context.object;
  set.configSize = config.image.bytes.size();
  set.pConfig = config.image.bytes.data();
  set.counterDataImageSize = context.counter_data.size();
  set.pCounterDataImage = context.counter_data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = IsApplicationReplay(state) ? CUPTI_ApplicationReplay : CUPTI_KernelReplay;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = step.pass_index;
  set.targetNestingLevel = step.target_nesting_level;
  LogDebug("set config: pass index " + std::to_string(step.pass_index) + ", nesting level " +
           std::to_string(step.target_nesting_level));
  what = "cuptiRangeProfilerSetConfig";
  if (CUptiResult r = cuptiRangeProfilerSetConfig(&set); r != CUPTI_SUCCESS) return r;
  auto start =
      Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = context.object;
  what = "cuptiRangeProfilerStart";
  CUptiResult result = cuptiRangeProfilerStart(&start);
  LogDebug("configured and started: " + Elapsed(started));
  return result;
}

// After the launch (its replay passes ran inside it): Stop and decode. `dropped` tells a
// launch CUPTI kept no range for.
struct StopResult {
  std::size_t dropped = 0;
  bool all_passes_submitted = false;
  AppReplayStep next;  // application replay: what the next run continues with
};

CUptiResult EndMeasurement(ContextProfiler& context, std::string& what, StopResult& stopped) {
  const SteadyClock::time_point started = SteadyClock::now();
  auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = context.object;
  what = "cuptiRangeProfilerStop";
  if (CUptiResult r = cuptiRangeProfilerStop(&stop); r != CUPTI_SUCCESS) return r;
  stopped.all_passes_submitted = stop.isAllPassSubmitted != 0;
  LogDebug("stop: pass index " + std::to_string(stop.passIndex) + ", nesting level " +
           std::to_string(stop.targetNestingLevel) + ", all passes submitted " +
           std::to_string(stop.isAllPassSubmitted));
  stopped.next.pass_index = stop.passIndex;
  stopped.next.target_nesting_level = static_cast<std::uint16_t>(stop.targetNestingLevel);
  auto decode = Params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = context.object;
  what = "cuptiRangeProfilerDecodeData";
  LogDebug("stopped: " + Elapsed(started));
  CUptiResult r = cuptiRangeProfilerDecodeData(&decode);
  stopped.dropped = decode.numOfRangeDropped;
  LogDebug("decoded: " + Elapsed(started));
  return r;
}

void Submit(ProfilerState& state, OwnedProfiledKernel kernel) {
  if (state.hooks.submit) state.hooks.submit(std::move(kernel));
}

void SayUnavailableOnce(ProfilerState& state, const std::string& why) {
  if (state.said_unavailable) return;
  state.said_unavailable = true;
  LogError(why + "; kernels are not measured, the program runs on and is traced");
}

void ProgressLine(const OwnedProfiledKernel& kernel) {
  std::string name = FunctionBaseName(Demangle(kernel.mangled_name));
  std::string line =
      "Profiling \"" + name + "\" - " + std::to_string(kernel.record.profile_index) + ": ";
  if (kernel.record.outcome == model::ProfileOutcome::kMeasured) {
    line += "0%....50%....100% - " + std::to_string(kernel.record.passes) + " passes";
  } else {
    line += "not measured: " + kernel.message;
  }
  LogBanner(line);
}

bool LaunchFailed(CUpti_CallbackDomain domain, const CUpti_CallbackData& data, int& code) {
  if (data.functionReturnValue == nullptr) return false;
  code = domain == CUPTI_CB_DOMAIN_RUNTIME_API
             ? static_cast<int>(*static_cast<const cudaError_t*>(data.functionReturnValue))
             : static_cast<int>(*static_cast<const CUresult*>(data.functionReturnValue));
  return code != 0;
}

// Returns false when this call cannot decide and a nested driver call should (see
// LaunchInFlight::decided).
bool OnEnter(ProfilerState& state, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
             const CUpti_CallbackData& data) {
  if (state.selector.Exhausted()) return true;
  if (data.symbolName == nullptr || *data.symbolName == '\0' || data.context == nullptr) {
    return false;
  }
  std::uint32_t device_id = 0;
  cuptiGetDeviceId(data.context, &device_id);
  LaunchCandidate candidate;
  candidate.mangled_name = data.symbolName;
  candidate.context_id = data.contextUid;
  candidate.device_id = device_id;
  if (state.config.filter.kernel_id && state.config.filter.kernel_id->stream_id) {
    std::optional<StreamArgument> stream = StreamOf(domain, cbid, data.functionParams);
    // A runtime call that hides its stream (<<<>>> in CUDA 13): its driver call tells.
    if (!stream && domain == CUPTI_CB_DOMAIN_RUNTIME_API) return false;
    if (stream) {
      std::uint32_t stream_id = 0;
      if (cuptiGetStreamIdEx(data.context, static_cast<CUstream>(stream->stream),
                             stream->per_thread ? 1 : 0, &stream_id) == CUPTI_SUCCESS) {
        candidate.stream_id = stream_id;
      }
    }
  }
  LaunchDecision decision = state.selector.Decide(candidate);
  if (!decision.profile) return true;
  state.pending_selected.fetch_add(1);

  LaunchInFlight& launch = ThisThreadsLaunch();
  launch.lock = std::unique_lock<std::mutex>(state.mutex);
  OwnedProfiledKernel& kernel = launch.kernel;
  kernel = OwnedProfiledKernel{};
  // The kernel's trace record carries the outermost (runtime) call's correlation id.
  kernel.record.correlation_id =
      launch.outer_correlation_id != 0 ? launch.outer_correlation_id : data.correlationId;
  kernel.record.device_id = device_id;
  kernel.record.context_id = data.contextUid;
  kernel.record.stream_id = candidate.stream_id.value_or(0);
  kernel.record.invocation = decision.invocation;
  kernel.record.profile_index = decision.profile_index;
  kernel.record.replay_mode = state.config.replay_mode;
  kernel.record.start = Now();
  kernel.mangled_name = data.symbolName;

  ContextProfiler& context = PrepareContext(state, data.context, device_id);
  kernel.chip = context.chip;
  kernel.record.passes = context.passes;
  // A setup failure of the context (no counters, unsupported device) is permanent; a failed
  // step of one launch is reported and the next launch is tried again.
  std::string failure = context.failure;
  model::ProfileOutcome outcome = context.failure_outcome;
  if (failure.empty()) {
    std::string what;
    std::string replay_problem;
    CUptiResult r = BeginMeasurement(state, context, kernel, what, replay_problem);
    // The profiler stays enabled after a failed step (see EnableProfiler: never twice).
    if (r == CUPTI_SUCCESS && !replay_problem.empty()) {
      failure = replay_problem;
      outcome = model::ProfileOutcome::kNotReplayable;
    } else if (r != CUPTI_SUCCESS) {
      ContextProfiler step;
      Fail(step, r, what);
      failure = step.failure;
      outcome = step.failure_outcome;
      if (outcome == model::ProfileOutcome::kCountersUnavailable) {
        DisableProfiler(context);
        context.failure = failure;
        context.failure_outcome = outcome;
      }
    }
  }
  if (!failure.empty()) {
    kernel.record.outcome = outcome;
    kernel.message = failure;
    kernel.record.end = Now();
    if (outcome == model::ProfileOutcome::kCountersUnavailable) SayUnavailableOnce(state, failure);
    if (state.hooks.progress) ProgressLine(kernel);
    Submit(state, std::move(kernel));
    state.pending_selected.fetch_sub(1);
    launch.lock.unlock();
    return true;
  }
  launch.measuring = true;
  launch.context = &context;
  return true;
}

void OnExit(ProfilerState& state, CUpti_CallbackDomain domain, const CUpti_CallbackData& data) {
  LaunchInFlight& launch = ThisThreadsLaunch();
  launch.measuring = false;
  ContextProfiler& context = *launch.context;
  OwnedProfiledKernel& kernel = launch.kernel;
  std::string what;
  StopResult stopped;
  LogDebug("launch returned");
  CUptiResult result = EndMeasurement(context, what, stopped);
  const std::size_t dropped = stopped.dropped;
  // This launch is done; the profiler goes once no other selected launch can still need it.
  if (state.pending_selected.fetch_sub(1) == 1 && state.selector.Exhausted()) {
    const SteadyClock::time_point disabling = SteadyClock::now();
    DisableProfiler(context);
    LogDebug("range profiler disabled: " + Elapsed(disabling));
  }
  kernel.record.end = Now();
  int launch_error = 0;
  if (LaunchFailed(domain, data, launch_error)) {
    kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
    kernel.message = "the launch returned error " + std::to_string(launch_error);
  } else if (result != CUPTI_SUCCESS) {
    kernel.record.outcome = IsUnavailable(result) ? model::ProfileOutcome::kCountersUnavailable
                                                  : model::ProfileOutcome::kReplayFailed;
    kernel.message = IsUnavailable(result) ? UnavailableMessage(result, what)
                                           : what + " failed: " + Hex(result) +
                                                 " (a kernel that waits on other kernels or "
                                                 "writes host memory cannot be replayed alone: "
                                                 "try --replay-mode application -c 1)";
  } else if (dropped != 0) {
    kernel.record.outcome = model::ProfileOutcome::kRangeDropped;
    kernel.message =
        "CUPTI kept no counter data for the launch (" + std::to_string(dropped) + " range dropped)";
  } else if (IsApplicationReplay(state)) {
    // Every run but the last only adds its pass to the image kept between runs.
    stopped.next.kernel_name = kernel.mangled_name;
    Status saved = AppReplayStore(state.config.app_dir)
                       .Save(kernel.record.profile_index, stopped.next, context.counter_data);
    const bool last_run = state.config.app_pass + 1 == state.config.app_passes;
    if (!saved.ok()) {
      kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
      kernel.message = saved.message();
    } else if (!last_run) {
      if (state.hooks.progress) {
        LogBanner("Profiling \"" + FunctionBaseName(Demangle(kernel.mangled_name)) + "\" - " +
                  std::to_string(kernel.record.profile_index) + ": pass " +
                  std::to_string(state.config.app_pass + 1) + " of " +
                  std::to_string(state.config.app_passes));
      }
      launch.context = nullptr;
      launch.lock.unlock();
      return;
    } else if (!stopped.all_passes_submitted) {
      kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
      kernel.message = "CUPTI needs more passes than the " +
                       std::to_string(state.config.app_passes) + " runs planned";
    } else {
      kernel.record.outcome = model::ProfileOutcome::kMeasured;
      kernel.counter_data = context.counter_data;
    }
  } else {
    kernel.record.outcome = model::ProfileOutcome::kMeasured;
    kernel.counter_data = context.counter_data;  // the context's image is reused next time
  }
  if (state.hooks.progress) ProgressLine(kernel);
  LogDebug("kernel " + std::to_string(kernel.record.profile_index) + " measured in " +
           std::to_string((kernel.record.end - kernel.record.start) / 1'000'000) + " ms");
  Submit(state, std::move(kernel));
  launch.context = nullptr;
  launch.lock.unlock();
}

}  // namespace

Status StartKernelProfiler(CUpti_SubscriberHandle subscriber, const ProfileConfig& config,
                           KernelProfilerHooks hooks) {
  if (g_state != nullptr) return Status::Error("the kernel profiler was started twice");
  // cuptiProfilerInitialize waits for the first selected launch: here we are inside cuInit,
  // where it fails (CUPTI_ERROR_UNKNOWN on the H200).
  auto* state = new ProfilerState(config, std::move(hooks));  // lives as long as the process
  for (const std::string& name : state->config.metrics) state->metric_names.push_back(name.c_str());
  for (const LaunchCallback& launch : kLaunchCallbacks) {
    CUptiResult r = cuptiEnableCallback(1, subscriber, launch.domain, launch.cbid);
    if (r != CUPTI_SUCCESS) {
      return Status::Error("cannot watch kernel launches (cuptiEnableCallback: " + Hex(r) +
                           "); kernels are not measured");
    }
  }
  g_state = state;
  LogDebug("kernel profiler: " + std::to_string(config.metrics.size()) + " metrics");
  return Status();
}

void ForgetProfiledContext(CUcontext context) {
  ProfilerState* state = g_state;
  if (state == nullptr) return;
  try {
    std::lock_guard<std::mutex> lock(state->mutex);
    auto found = state->contexts.find(context);
    if (found == state->contexts.end()) return;
    DisableProfiler(*found->second);
    // The entry goes: a new context at the same address starts afresh. Its ContextProfiler is
    // kept alive (leaked on purpose): a launch of another thread cannot hold it, since
    // measurements take this lock, but nothing must dangle if CUPTI calls back late.
    found->second.release();
    state->contexts.erase(found);
  } catch (...) {
  }
}

bool IsProfiledLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (g_state == nullptr) return false;
  for (const LaunchCallback& launch : kLaunchCallbacks) {
    if (launch.domain == domain && launch.cbid == cbid) return true;
  }
  return false;
}

void OnLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                      const CUpti_CallbackData& data) {
  ProfilerState* state = g_state;
  if (state == nullptr) return;
  LaunchInFlight& launch = ThisThreadsLaunch();
  try {
    if (data.callbackSite == CUPTI_API_ENTER) {
      if (++launch.depth == 1) {
        launch.decided = false;
        launch.outer_correlation_id = data.correlationId;
      }
      if (!launch.decided) {
        launch.decided = OnEnter(*state, domain, cbid, data);
        if (launch.measuring) launch.measure_depth = launch.depth;
      }
    } else if (launch.depth > 0) {
      if (launch.measuring && launch.depth == launch.measure_depth) OnExit(*state, domain, data);
      if (--launch.depth == 0) {
        launch.decided = false;
        launch.outer_correlation_id = 0;
      }
    }
  } catch (...) {
    // Never into the program. A measurement cut short is stopped (best effort) and recorded
    // as failed, so that neither the kernel nor the context's profiler is lost silently.
    if (launch.measuring && launch.context != nullptr && launch.context->object != nullptr) {
      auto stop =
          Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
      stop.pRangeProfilerObject = launch.context->object;
      cuptiRangeProfilerStop(&stop);
    }
    if (launch.measuring) {
      try {
        launch.kernel.record.outcome = model::ProfileOutcome::kReplayFailed;
        launch.kernel.message = "gpuscope failed internally while measuring the launch";
        launch.kernel.counter_data.clear();
        Submit(*state, std::move(launch.kernel));
      } catch (...) {
      }
      state->pending_selected.fetch_sub(1);
    }
    launch.measuring = false;
    launch.context = nullptr;
    if (launch.lock.owns_lock()) launch.lock.unlock();
  }
}

}  // namespace gpuscope::inject::cupti
