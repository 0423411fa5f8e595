// Synthetic launch-bound traces: what the writer sees when a program launches many small
// kernels from one thread (PyTorch's eager mode, a tight CUDA loop). Used by the size and
// round-trip tests, the export and viewer tests' large reports, the writer benchmark and
// make_synthetic_report (for the stats benchmark).
//
// Values are realistic in magnitude, which is what report size depends on: absolute
// CLOCK_REALTIME nanoseconds, microsecond durations, growing correlation and grid ids,
// 32-bit thread ids, a few dozen distinct kernels with real mangled names and launch
// configurations. The sequence is deterministic for a given seed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "model/record_sink.h"
#include "model/records.h"
#include "util/status.h"

namespace gpuscope::store::testing {

struct SyntheticTraceOptions {
  std::uint64_t kernels = 1000;
  // Call sink.Flush() after this many kernels (each kernel is two records); 0: never.
  std::uint64_t flush_every_kernels = 0;
  model::Timestamp start_time = 1'760'000'000'000'000'000ull;
  std::uint32_t seed = 1;
};

// The cudaLaunchKernel callback id (CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000).
inline constexpr std::uint32_t kLaunchKernelCbid = 211;

// Process, device, context and stream records, then per kernel its cudaLaunchKernel
// runtime call and the kernel record: 2 * kernels event records. Does not flush at the end.
void WriteSyntheticTrace(model::RecordSink& sink, const SyntheticTraceOptions& options);

// The trace in a new report at `path` (through the production ReportWriter), flushed and
// closed; the first error.
Status WriteSyntheticReport(const std::string& path, const SyntheticTraceOptions& options);

// The kernel names the trace draws from (mangled, and a few unmangled ones as Triton and
// cuBLAS emit them).
std::span<const std::string_view> SyntheticKernelNames();

}  // namespace gpuscope::store::testing
