#include "cupti/tracing/gpu_clock.h"

#include <algorithm>

#include "cupti/common/driver_entry_points.h"
#include "cupti/common/subscriber.h"
#include "cupti/tracing/activity.h"
#include "cupti/tracing/own_replay_scope.h"
#include "inject/capture_gate.h"
#include "inject/host_clocks.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

Status Checked(CUresult result, const char* what) {
  if (result == CUDA_SUCCESS) return Status();
  return Status::Error(std::string(what) + " returned CUDA error " + std::to_string(result));
}

// Every driver call a sample makes: their callbacks are on while it runs, so that their
// correlation ids are noted as gpuscope's own (the DRIVER activity kind records them all).
constexpr CUpti_CallbackId kOwnDriverCalls[] = {
    CUPTI_DRIVER_TRACE_CBID_cuCtxPushCurrent_v2,   CUPTI_DRIVER_TRACE_CBID_cuCtxPopCurrent_v2,
    CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice,        CUPTI_DRIVER_TRACE_CBID_cuModuleLoadData,
    CUPTI_DRIVER_TRACE_CBID_cuModuleGetFunction,   CUPTI_DRIVER_TRACE_CBID_cuStreamCreate,
    CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc,        CUPTI_DRIVER_TRACE_CBID_cuMemHostGetDevicePointer_v2,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
};

}  // namespace

StatusOr<GpuClock::ContextClock*> GpuClock::For(CUcontext context) {
  auto found = contexts_.find(context);
  if (found != contexts_.end()) return &found->second;
  StatusOr<const DriverEntryPoints*> entry_points = Driver();
  if (!entry_points.ok()) return entry_points.status();
  const DriverEntryPoints& d = **entry_points;
  ContextClock clock;
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.context_get_device(&clock.device), "cuCtxGetDevice"));
  CUmodule module = nullptr;
  // The PTX is a C string (the raw literal ends with its NUL), as cuModuleLoadData wants.
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.module_load_data(&module, GpuClockPtx().data()),
                                   "cuModuleLoadData (the clock kernel's PTX)"));
  GPUSCOPE_RETURN_IF_ERROR(Checked(
      d.module_get_function(&clock.function, module, "gpuscope_clock_read"), "cuModuleGetFunction"));
  // Non-blocking: never ordered after the program's work on the legacy default stream.
  GPUSCOPE_RETURN_IF_ERROR(
      Checked(d.stream_create(&clock.stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate"));
  void* slot = nullptr;
  GPUSCOPE_RETURN_IF_ERROR(Checked(
      d.mem_host_alloc(&slot, sizeof(std::uint64_t),
                       CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP),
      "cuMemHostAlloc (the clock kernel's slot)"));
  clock.slot = static_cast<volatile std::uint64_t*>(slot);
  *clock.slot = 0;
  GPUSCOPE_RETURN_IF_ERROR(Checked(d.mem_host_get_device_pointer(&clock.device_slot, slot, 0),
                                   "cuMemHostGetDevicePointer"));
  // Never freed: the module, stream and slot go with the context (freeing them while the
  // program tears its context down would be a new risk for 8 bytes).
  return &contexts_.emplace(context, clock).first->second;
}

Status GpuClock::SampleCurrent(ContextClock& clock,
                               std::vector<model::ClockSampleRecord>& pairs) {
  const DriverEntryPoints& d = **Driver();
  if (clock.in_flight) {
    // The last launch waited behind the program's work past the timeout: its late value is
    // not a pair (the host reads around it are gone); once it landed the slot is free again.
    if (*clock.slot == 0) {
      std::lock_guard<std::mutex> lock(state_);
      ++skipped_;
      return Status();
    }
    clock.in_flight = false;
  }
  *clock.slot = 0;
  void* arguments[] = {&clock.device_slot};
  const inject::HostClockRead before = inject::ReadHostClocks(Now());
  GPUSCOPE_RETURN_IF_ERROR(Checked(
      d.launch_kernel(clock.function, 1, 1, 1, 1, 1, 1, 0, clock.stream, arguments, nullptr),
      "cuLaunchKernel (the clock kernel)"));
  const auto deadline = std::chrono::steady_clock::now() + kPollTimeout;
  std::uint64_t gpu_ns = 0;
  while ((gpu_ns = *clock.slot) == 0 && std::chrono::steady_clock::now() < deadline) {
  }
  const inject::HostClockRead after = inject::ReadHostClocks(Now());
  if (gpu_ns == 0) gpu_ns = *clock.slot;  // landed between the last poll and `after`
  if (gpu_ns == 0) {
    clock.in_flight = true;
    std::lock_guard<std::mutex> lock(state_);
    ++skipped_;
    inject::LogDebug("GPU clock pair of device " + std::to_string(clock.device) +
                     " skipped: the clock kernel did not run within " +
                     std::to_string(kPollTimeout.count()) + " us");
    return Status();
  }
  if (auto pair = inject::GpuClockPair(before, after, static_cast<std::uint32_t>(clock.device),
                                       static_cast<std::int64_t>(gpu_ns))) {
    pairs.push_back(*pair);
  }
  return Status();
}

std::vector<model::ClockSampleRecord> GpuClock::Sample(const std::vector<CUcontext>& contexts) {
  std::vector<model::ClockSampleRecord> pairs;
  if (contexts.empty() || disabled()) return pairs;
  std::unique_lock<std::timed_mutex> sampling(sampling_);
  inject::CaptureGate::Hold gate(inject::ProcessCaptureGate());
  if (gate.capturing()) {
    std::lock_guard<std::mutex> lock(state_);
    ++skipped_;
    return pairs;
  }
  StatusOr<const DriverEntryPoints*> entry_points = Driver();
  Status failed = entry_points.status();
  std::unordered_set<CUdevice> sampled;
  if (failed.ok()) {
    const DriverEntryPoints& d = **entry_points;
    OwnReplayScope own(0, 0);  // the calls below are gpuscope's, not the program's
    DriverCallbacksOn watch(kOwnDriverCalls);
    failed = watch.status();
    for (CUcontext context : contexts) {
      if (!failed.ok()) break;
      if (Dying(context)) continue;
      auto known = contexts_.find(context);
      if (known != contexts_.end() && sampled.count(known->second.device) != 0) continue;
      failed = Checked(d.context_push_current(context), "cuCtxPushCurrent");
      if (!failed.ok()) break;
      StatusOr<ContextClock*> clock = For(context);
      if (!clock.ok()) {
        failed = clock.status();
      } else if (sampled.insert((*clock)->device).second) {
        failed = SampleCurrent(**clock, pairs);
      }
      CUcontext popped = nullptr;
      Status pop = Checked(d.context_pop_current(&popped), "cuCtxPopCurrent");
      if (failed.ok()) failed = pop;
    }
  }
  if (!failed.ok()) {
    {
      std::lock_guard<std::mutex> lock(state_);
      disabled_ = true;
    }
    inject::LogError("GPU clock pairs are off for this run (the host clock pairs go on): " +
                     failed.message());
  }
  return pairs;
}

void GpuClock::Disable(std::string_view why) {
  std::lock_guard<std::mutex> lock(state_);
  if (!disabled_) inject::LogDebug("GPU clock pairs off: " + std::string(why));
  disabled_ = true;
}

bool GpuClock::disabled() const {
  std::lock_guard<std::mutex> lock(state_);
  return disabled_;
}

std::uint64_t GpuClock::skipped() const {
  std::lock_guard<std::mutex> lock(state_);
  return skipped_;
}

bool GpuClock::Dying(CUcontext context) const {
  std::lock_guard<std::mutex> lock(state_);
  return dying_.count(context) != 0;
}

void GpuClock::ForgetContext(CUcontext context) {
  {
    std::lock_guard<std::mutex> lock(state_);
    dying_.insert(context);
  }
  // A sample in progress on this context finishes first; past the wait (a sample stuck in the
  // driver behind this very destruction) the context is left marked, never sampled again.
  if (sampling_.try_lock_for(kForgetWait)) {
    contexts_.erase(context);
    sampling_.unlock();
  }
}

void GpuClock::NoteContextCreated(CUcontext context) {
  std::unique_lock<std::timed_mutex> sampling(sampling_, kForgetWait);
  if (sampling.owns_lock()) contexts_.erase(context);  // a destroyed context's state, if any
  std::lock_guard<std::mutex> lock(state_);
  if (sampling.owns_lock()) dying_.erase(context);
}

GpuClock& ProcessGpuClock() {
  static auto* clock = new GpuClock();
  return *clock;
}

}  // namespace gpuscope::cupti
