// CUPTI's callback API: claiming CUPTI for this process, and the few callbacks we need.
//
// Only one CUPTI subscriber may exist per process, and activity callbacks are process-wide
// too: two tools sharing CUPTI corrupt each other's records (notes/cupti.md 6.3, 6.4). So
// Subscribe() runs first; if someone else owns CUPTI (torch.profiler, Nsight Systems,
// cuda-gdb...), we stand down and touch nothing else.
//
// Callbacks enabled: the resource callbacks for context creation and destruction (to flush
// a context's records and read its dropped count before it goes), the NVTX callbacks of
// nvtxRangeStart* (the only way to tell start/end ranges from push/pop ones, see
// nvtx_start_end_ids.h; they cost one call per range start; on only while the tracing
// kinds are, since an id whose MARKER records are off is never taken again), the calls that
// wait for the GPU (sticky_error_watch.h: where a sticky error surfaces first; they cost
// nothing next to the wait), the stream-capture calls (capture_callbacks.h: gpuscope's own GPU
// work waits while a capture may be under way), and, only with --profile-from-start off, the
// exits of cudaProfilerStart/Stop and cuProfilerStart/Stop. With --api-capture activity no
// callback runs per launch or per ordinary call (except with `--backtrace`, which asks for one
// at each launch, copy, memset and sync: backtrace_sites.h): tracing costs only what CUPTI's
// activity records cost; with --api-capture callback every runtime and driver call has its
// callbacks (api_callback_capture.h).
//
// Every callback goes to the process's table of handlers (callback_table.h): the order the
// features see it in is declared there, and each feature's handler is registered here when
// the feature is enabled (the ones always on by Subscribe).
//
// DEVICE and CONTEXT records stay enabled outside cudaProfilerStart/Stop: they are
// one-off descriptions that the recorded kernels refer to (a context created before the
// start would otherwise have no row). Runtime and driver API records do not: nvprof
// records no API call outside the profiled range either, and they would distort the API
// summary.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <span>
#include <vector>

#include "inject/call_stacks.h"

#include "util/status.h"

namespace gpuscope::cupti {

class KernelProfiler;
class GpuMetricSampler;

// Checks that the CUPTI loaded in this process is at least the version we were built
// against, then subscribes. An error is the whole stand-down sentence, for LogError.
Status Subscribe();
void Unsubscribe();

// `profiler_control`: cudaProfilerStart/Stop turn the tracing kinds (and the
// nvtxRangeStart callbacks) on and off. `tracing_now`: the tracing kinds are on already.
// `trace_nvtx`: NVTX is traced (--trace), else the nvtxRangeStart callbacks stay off.
Status EnableCallbacks(bool profiler_control, bool tracing_now, bool trace_nvtx = true);

// --api-capture callback (api_callback_capture.h): every runtime and driver callback from
// now on, on the thread inside cuInit. `recording_now`: false waits for cudaProfilerStart.
Status EnableApiCallbackCapture(bool recording_now);

// `--backtrace`: the enter callbacks of launches, copies, memsets and syncs take the host call
// stack into `stacks` (backtrace_sites.h), which must live as long as the process.
Status EnableBacktraces(inject::CallStacks& stacks);

// `gpuscope profile`: the launch callbacks go to `profiler` (kernel_profiler.h) from now on,
// until the process ends: it must live as long. Once per process.
Status EnableKernelProfiler(KernelProfiler& profiler);

// `gpuscope run --gpu-metrics`: context creation and destruction reach `sampler`
// (gpu_metric_sampler.h) from now on, until the process ends: it must live as long.
void SetGpuMetricSampler(GpuMetricSampler& sampler);

// Dropped records of every context still alive (read at exit).
std::uint64_t TakeDroppedRecordsOfLiveContexts();

// In a child forked without exec: the callbacks must do nothing from now on.
void IgnoreCallbacksFromNowOn();

// The program's contexts alive now, in creation order.
std::vector<CUcontext> LiveContextsNow();

// For a scope of gpuscope's own driver calls (gpu_clock.h, on a thread inside OwnReplayScope):
// the callbacks of `cbids` on, so that the calls' correlation ids are noted as gpuscope's own
// and their records left out of the trace; each is put back as it was when the scope ends.
class DriverCallbacksOn {
 public:
  explicit DriverCallbacksOn(std::span<const CUpti_CallbackId> cbids);
  ~DriverCallbacksOn();
  DriverCallbacksOn(const DriverCallbacksOn&) = delete;
  DriverCallbacksOn& operator=(const DriverCallbacksOn&) = delete;
  // Not ok when a callback could not be turned on: the calls must not be made then.
  const Status& status() const { return status_; }

 private:
  std::vector<CUpti_CallbackId> enabled_;  // the ones this scope turned on
  Status status_;
};

}  // namespace gpuscope::cupti
