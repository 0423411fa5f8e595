// CUPTI's Activity API as the rest of the injection library sees it: which record kinds
// are collected, where CUPTI's buffers come from and go to, flushing, and the loss count.
// No CUPTI type appears here (ARCHITECTURE.md: only cupti includes CUPTI).
#pragma once

#include <cstddef>
#include <cstdint>

#include "model/records.h"
#include "util/status.h"
#include "util/trace_scope.h"

struct CUctx_st;  // CUcontext, without including cuda.h

namespace gpuscope::inject {
class Collector;
}

namespace gpuscope::cupti {

// The collector that serves CUPTI's buffer callbacks; nullptr: requests get no buffer and
// completed buffers are ignored (a forked child, or before the session exists).
void SetBufferCollector(inject::Collector* collector);
inject::Collector* BufferCollector();

// The callbacks registered with cuptiActivityRegisterCallbacks, exposed so that tests can
// drive the production path exactly as CUPTI does.
void BufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records);
void BufferCompleted(CUctx_st* context, std::uint32_t stream_id, std::uint8_t* buffer,
                     std::size_t size, std::size_t valid_bytes);

// Before CUDA creates a context: activity attributes (device buffer size, zeroed buffers,
// system thread ids), the buffer callbacks and CUPTI's periodic flush.
Status ConfigureActivity(unsigned flush_period_ms);

// DEVICE and CONTEXT: one-off records that label everything else. Always on, also outside
// cudaProfilerStart/Stop (a context created before the start must still be described).
Status EnableDescriptiveKinds();

// What EnableTracingKinds enables from now on (--trace, --api-capture, --cuda-graph-trace);
// before the first EnableTracingKinds. Default: TraceScope{}.
void SetTracingScope(const TraceScope& scope);

// --cuda-graph-trace graph: GRAPH_TRACE, once, for the whole process (never toggled with
// cudaProfilerStart/Stop: enabling it after a graph was instantiated crashed CUPTI,
// notes/cupti.md 2.4). Nothing otherwise.
Status EnableGraphTrace();

// The kinds that trace the program's work (kernels, copies, memsets, API calls, memory,
// synchronization, NVTX, overhead). Idempotent; a kind CUPTI refuses is named in the error
// and the others stay enabled.
Status EnableTracingKinds();
// Disables them again (after a flush), for cudaProfilerStop.
void DisableTracingKinds();
bool TracingKindsEnabled();

// Kernel records without CUPTI's instrumentation, for a scope. CONCURRENT_KERNEL records are
// timed by code CUPTI adds to every kernel, and the range profiler counts that code: 16 more
// instructions per warp in application replay (69,206,056 against 52,428,800 for k_saxpy on
// an H200, 2026-11-28). The serial KERNEL kind times kernels without it (its records are the
// same structure), and a measured launch or range runs alone anyway. Does nothing while the
// tracing kinds are off. Any thread; scopes do not nest.
class SerialKernelRecords {
 public:
  SerialKernelRecords();
  ~SerialKernelRecords();
  SerialKernelRecords(const SerialKernelRecords&) = delete;
  SerialKernelRecords& operator=(const SerialKernelRecords&) = delete;

 private:
  bool switched_ = false;
};

// cuptiActivityFlushAll: `forced` also returns buffers with incomplete records.
Status FlushAll(bool forced);

// Records CUPTI dropped since the last call (CUPTI resets its counter when read), in the
// global queue and in `context` (nullptr: only the global queue).
std::uint64_t TakeDroppedRecords(CUctx_st* context);

// CUPTI's clock: the clock of every record's timestamps.
model::Timestamp Now();

}  // namespace gpuscope::cupti
