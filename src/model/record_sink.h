// The one interface between collection and storage: the collector translates vendor
// records into model records and hands them to a sink; the report writer is the
// production sink, tests use an in-memory one. Calls come from a single thread (the
// collector's writer thread), so implementations need no locking of their own.
#pragma once

#include "model/capture_records.h"
#include "model/gpu_metric_records.h"
#include "model/profile_records.h"
#include "model/records.h"

namespace gpuscope::model {

class RecordSink {
 public:
  virtual ~RecordSink() = default;

  virtual void OnProcess(const ProcessRecord& record) = 0;
  virtual void OnDevice(const DeviceRecord& record) = 0;
  virtual void OnContext(const ContextRecord& record) = 0;
  virtual void OnStream(const StreamRecord& record) = 0;
  virtual void OnKernel(const KernelRecord& record) = 0;
  virtual void OnMemcpy(const MemcpyRecord& record) = 0;
  virtual void OnMemset(const MemsetRecord& record) = 0;
  // nested_in_runtime: a driver call made from inside a runtime call on the same thread
  // (nvprof's summary counts only the outer call).
  virtual void OnApiCall(const ApiCallRecord& record, bool nested_in_runtime) = 0;
  // What the process traces and how (once, after OnProcess).
  virtual void OnTraceScope(const TraceScopeRecord& record) = 0;
  // Hot no-op calls counted per thread and function instead of one row each.
  virtual void OnApiCallCount(const ApiCallCountRecord& record) = 0;
  // One graph launch (--cuda-graph-trace graph).
  virtual void OnGraphLaunch(const GraphLaunchRecord& record) = 0;
  virtual void OnMemory(const MemoryRecord& record) = 0;
  virtual void OnSync(const SyncRecord& record) = 0;
  virtual void OnNvtx(const NvtxRecord& record) = 0;
  virtual void OnOverhead(const OverheadRecord& record) = 0;
  // A kernel launch measured by `gpuscope profile` (its counter data, or why there is none).
  virtual void OnProfiledKernel(const ProfiledKernelRecord& record) = 0;
  // The clocks read at one moment (start of tracing, each flush, the end).
  virtual void OnClockSample(const ClockSampleRecord& record) = 0;
  // `--backtrace`: a host call stack seen for the first time (before the API calls that refer
  // to it are flushed), and the modules mapped when the session ends. Sinks that do not store
  // stacks ignore them.
  virtual void OnStack(const StackRecord& /*record*/) {}
  virtual void OnModule(const ModuleRecord& /*record*/) {}
  // `gpuscope run --gpu-metrics` (no-ops by default: sinks that keep no samples need nothing).
  // A device's metrics come before its samples.
  virtual void OnGpuMetric(const GpuMetricRecord&) {}
  virtual void OnGpuMetricSample(const GpuMetricSampleRecord&) {}
  virtual void OnGpuMetricSampling(const GpuMetricSamplingRecord&) {}
  // The running totals of everything lost so far; the latest call wins.
  virtual void OnCounters(const CollectionCounters& counters) = 0;
  // Make everything received so far durable (survives kill -9 of the process).
  virtual void Flush() = 0;
};

}  // namespace gpuscope::model
