// What the session needs from the vendor tracing interface (CUPTI in production). An
// interface so that the session's lifecycle (exit, signals, fork) is tested without a GPU,
// and so that nothing outside cupti includes a CUPTI header.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "inject/collector.h"
#include "model/records.h"
#include "util/status.h"
#include "util/trace_scope.h"

namespace gpuscope::inject {

struct TracingOptions {
  bool record_from_start = true;  // false: only between cudaProfilerStart and Stop
  unsigned flush_period_ms = kDefaultFlushMs;
  // What to record and how (--trace, --api-capture, --cuda-graph-trace).
  TraceScope scope;
  // `gpuscope profile`: the kernels to measure (null or disabled: tracing only), and
  // whether to print a progress line per measured kernel.
  const ProfileConfig* profile = nullptr;
  bool profile_progress = true;
  // `gpuscope run --gpu-metrics`: the set and rate sampled on every device (null or disabled:
  // none).
  const GpuMetricsConfig* gpu_metrics = nullptr;
  // `--backtrace`: where the enter callbacks of launches, copies and syncs put their stacks.
  CallStacks* call_stacks = nullptr;
  // Called once, on the program's thread, when a call that waits for the GPU returned a sticky
  // error (model/sticky_errors.h), before that call returns to the program: the moment to save
  // the report, since the program is likely to die at its next step.
  std::function<void(std::string_view api, model::ApiDomain domain, std::int32_t code)>
      on_sticky_error;
};

// Which clocks a clock sample reads: the host's only (at the start, inside the driver's
// initialisation; in a dying process), or the GPUs' too (the flusher thread's periodic and
// final flushes: a backend may run work of its own on each device then).
enum class ClockSampling { kHostOnly, kWithGpus };

class TracingBackend {
 public:
  virtual ~TracingBackend() = default;

  // Claims the tracing interface for this process. An error is a full sentence saying why
  // gpuscope stands down (another tool owns CUPTI, CUPTI too old, no driver).
  virtual Status Attach() = 0;
  // Gives the claim back (when the session cannot start after all).
  virtual void Release() = 0;
  // The translator for this backend's buffers.
  virtual std::unique_ptr<BufferTranslator> MakeTranslator() = 0;
  // Routes buffers to `collector` and starts recording. An error here leaves tracing
  // partly working; the message says what is missing.
  virtual Status StartTracing(Collector& collector, const TracingOptions& options) = 0;
  // Delivers the completed buffers (all of them, incomplete records included, if `forced`).
  virtual Status Flush(bool forced) = 0;
  // Records the backend lost since the last call. `at_exit`: include every live context.
  virtual std::uint64_t TakeDroppedRecords(bool at_exit) = 0;
  // The clock of the records.
  virtual model::Timestamp Now() = 0;
  // The clocks read now, for the report's clock_samples: the host's (Now() with
  // CLOCK_REALTIME and CLOCK_MONOTONIC_RAW, inject/host_clocks.h) and, with kWithGpus, a GPU
  // pair per device where the backend can read one (inject::GpuClockPair). Never throws,
  // never synchronises with the program's work; kWithGpus only outside the backend's
  // callbacks and signal handlers.
  virtual std::vector<model::ClockSampleRecord> SampleClocks(ClockSampling sampling) = 0;
  // The end of the run: GPU metric sampling decodes its last samples, stops and hands them to
  // the collector (before the collector finishes). Never throws; not on a fatal signal's path.
  virtual void StopGpuMetrics() {}
  // After the final flush: GPU metric sampling lets go of the devices (disabled, as it must be
  // before their contexts go: the CUDA runtime destroys them after our exit handler, when the
  // callbacks no longer come, and an object left enabled on a destroyed context crashed the
  // program in CUPTI's teardown). Never throws; not on a fatal signal's path.
  virtual void ReleaseGpuMetrics() {}
  // The report is closed: callbacks that still come (the CUDA runtime tears contexts down
  // after our exit handler) must do nothing.
  virtual void StopCallbacks() = 0;
  // In a child forked without exec: never call into the tracing library again.
  virtual void AbandonInForkedChild() = 0;
};

}  // namespace gpuscope::inject
