// The features of the trace, the kernel profiler and GPU metric sampling turned on in CUPTI's
// callback API, once Subscribe() claimed CUPTI (common/subscriber.h).
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
// Every callback goes to the process's table of handlers (common/callback_table.h): the order
// the features see it in is declared there, and each feature's handler is registered here when
// the feature is enabled (the ones always on by RegisterAlwaysOnCallbacks).
//
// DEVICE and CONTEXT records stay enabled outside cudaProfilerStart/Stop: they are
// one-off descriptions that the recorded kernels refer to (a context created before the
// start would otherwise have no row). Runtime and driver API records do not: nvprof
// records no API call outside the profiled range either, and they would distort the API
// summary.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <vector>

#include "inject/call_stacks.h"
#include "util/status.h"

namespace gpuscope::cupti {

class KernelProfiler;
class GpuMetricSampler;

// After Subscribe: the handlers of the features on whenever CUPTI is subscribed (contexts,
// nvtxRangeStart ids, gpuscope's own replay calls, stream captures, sticky errors,
// cudaProfilerStart/Stop), before any of their callbacks is enabled.
void RegisterAlwaysOnCallbacks();

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

}  // namespace gpuscope::cupti
