#include "cupti/tracing/activity.h"

#include <cupti.h>
#include <time.h>

#include <atomic>
#include <mutex>
#include <iterator>
#include <string>
#include <vector>

#include "cupti/common/cupti_error.h"
#include "inject/collector.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

std::atomic<inject::Collector*> g_collector{nullptr};

// The buffer per context where the GPU writes kernel/copy/memset timestamps until CUPTI reads
// them. CUPTI's default (3,200,000 bytes) holds ~100,000; a launch-bound program can queue
// more than that before CUPTI's worker drains it, and then CUPTI either allocates another
// buffer on the launching thread (a stall in the program's critical path) or, at the pool
// limit, loses timestamps (records with start = end = 0). 8 MiB holds ~250,000 in flight,
// 2.5 times the 100,000-kernel launch loops we benchmark. The buffers are in pinned host
// memory (see ConfigureActivity), so CUPTI's 3 pre-allocated ones add 24 MiB to the
// program's resident memory: 16 MiB buffers added 48 MiB, +195 MB in all at 10 M kernels
// against the 200 MB budget (bench/RESULTS.md 2026-11-25).
constexpr std::size_t kDeviceBufferBytes = 8u << 20;

constexpr CUpti_ActivityKind kDescriptiveKinds[] = {
    CUPTI_ACTIVITY_KIND_DEVICE, CUPTI_ACTIVITY_KIND_CONTEXT,
    CUPTI_ACTIVITY_KIND_STREAM,  // one record per stream created: priority and flags
};

// src/cupti/tracing/README.md, "Activity kinds": the kinds of each part of the --trace list
// (util/trace_scope.h). GRAPH_TRACE is not among them: it replaces the kernel records of graph
// launches with one record per launch, so it is on (for the whole process, see
// EnableGraphTrace) only with --cuda-graph-trace graph.
constexpr CUpti_ActivityKind kGpuKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,  CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,            CUPTI_ACTIVITY_KIND_MEMORY2, CUPTI_ACTIVITY_KIND_OVERHEAD,
};
// RUNTIME and DRIVER only with --api-capture activity (callback: api_callback_capture.h).
constexpr CUpti_ActivityKind kApiRecordKinds[] = {CUPTI_ACTIVITY_KIND_RUNTIME,
                                                  CUPTI_ACTIVITY_KIND_DRIVER};
constexpr CUpti_ActivityKind kApiOtherKinds[] = {CUPTI_ACTIVITY_KIND_SYNCHRONIZATION};
constexpr CUpti_ActivityKind kNvtxKinds[] = {CUPTI_ACTIVITY_KIND_MARKER,
                                             CUPTI_ACTIVITY_KIND_MARKER_DATA};

std::mutex g_kinds_mutex;
bool g_tracing_enabled = false;
TraceScope g_scope;  // under g_kinds_mutex

// The tracing kinds of `scope`, in the order src/cupti/tracing/README.md lists them.
std::vector<CUpti_ActivityKind> TracingKindsOf(const TraceScope& scope) {
  std::vector<CUpti_ActivityKind> kinds;
  auto add = [&kinds](const auto& list) { kinds.insert(kinds.end(), std::begin(list), std::end(list)); };
  if (scope.cuda_gpu) add(kGpuKinds);
  if (scope.cuda_api && scope.api_capture == ApiCapture::kActivity) add(kApiRecordKinds);
  if (scope.cuda_api) add(kApiOtherKinds);
  if (scope.nvtx) add(kNvtxKinds);
  return kinds;
}

const char* KindName(CUpti_ActivityKind kind) {
  switch (kind) {
    case CUPTI_ACTIVITY_KIND_DEVICE:
      return "DEVICE";
    case CUPTI_ACTIVITY_KIND_CONTEXT:
      return "CONTEXT";
    case CUPTI_ACTIVITY_KIND_STREAM:
      return "STREAM";
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return "CONCURRENT_KERNEL";
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return "MEMCPY";
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return "MEMCPY2";
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return "MEMSET";
    case CUPTI_ACTIVITY_KIND_RUNTIME:
      return "RUNTIME";
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return "DRIVER";
    case CUPTI_ACTIVITY_KIND_MEMORY2:
      return "MEMORY2";
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return "SYNCHRONIZATION";
    case CUPTI_ACTIVITY_KIND_MARKER:
      return "MARKER";
    case CUPTI_ACTIVITY_KIND_MARKER_DATA:
      return "MARKER_DATA";
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      return "OVERHEAD";
    case CUPTI_ACTIVITY_KIND_GRAPH_TRACE:
      return "GRAPH_TRACE";
    default:
      return "?";
  }
}

template <typename Kinds>
Status EnableKinds(const Kinds& kinds) {
  std::string failed;
  std::string enabled;
  for (CUpti_ActivityKind kind : kinds) {
    CUptiResult result = cuptiActivityEnable(kind);
    if (result == CUPTI_SUCCESS) {
      enabled += std::string(enabled.empty() ? "" : " ") + KindName(kind);
    } else {
      failed += std::string(failed.empty() ? "" : ", ") + KindName(kind) + " (" +
                CuptiResultName(result) + ")";
    }
  }
  inject::LogDebug("activity kinds enabled: " + (enabled.empty() ? std::string("none") : enabled));
  if (!failed.empty()) return Status::Error("CUPTI refused to record " + failed);
  return Status();
}

template <typename T>
Status SetAttribute(CUpti_ActivityAttribute attribute, T value, const char* what) {
  std::size_t size = sizeof(value);
  return CuptiStatus(cuptiActivitySetAttribute(attribute, &size, &value), what);
}

void CUPTIAPI OnBufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  BufferRequested(buffer, size, max_records);
}

void CUPTIAPI OnBufferCompleted(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t size,
                                size_t valid_bytes) {
  BufferCompleted(context, stream_id, buffer, size, valid_bytes);
}

}  // namespace

void SetBufferCollector(inject::Collector* collector) {
  g_collector.store(collector, std::memory_order_release);
}

inject::Collector* BufferCollector() { return g_collector.load(std::memory_order_acquire); }

// Both callbacks run on the program's threads or CUPTI's worker: O(1), and nothing may
// escape them (the collector's calls do not throw; the catch is the last line of defence).
void BufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = nullptr;
  *size = 0;
  *max_records = 0;
  inject::Collector* collector = g_collector.load(std::memory_order_acquire);
  if (collector == nullptr) return;
  try {
    collector->OnBufferRequested(buffer, size, max_records);
  } catch (...) {
    *buffer = nullptr;
    *size = 0;
  }
}

void BufferCompleted(CUctx_st* /*context*/, std::uint32_t /*stream_id*/, std::uint8_t* buffer,
                     std::size_t /*size*/, std::size_t valid_bytes) {
  inject::Collector* collector = g_collector.load(std::memory_order_acquire);
  if (collector == nullptr) return;
  try {
    collector->OnBufferCompleted(buffer, valid_bytes);
  } catch (...) {
  }
}

Status ConfigureActivity(unsigned flush_period_ms) {
  // Failures of the tuning attributes cost performance or detail, not records: report them
  // and go on. Failing to register the callbacks means no records at all.
  Status device_buffer = SetAttribute<std::size_t>(
      CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, kDeviceBufferBytes, "setting the device buffer size");
  if (!device_buffer.ok()) inject::LogError(device_buffer.message());
  // Where the GPU writes the timestamps of kernels, copies and memsets until CUPTI reads them
  // (at a flush): in device memory, the default, a sticky error (an illegal address, a device
  // assert) makes them unreadable, and every kernel that completed since the last flush
  // reaches the report without its times. In pinned host memory they survive (H100: 0 of 100
  // kernels timed after the error in device memory, 100 of 100 pinned; a launch loop costs
  // the same: scripts/bench-sticky-error.sh, bench/RESULTS.md 2026-11-25).
  Status pinned = SetAttribute<std::uint8_t>(CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED,
                                             1, "keeping GPU timestamps in pinned host memory");
  if (!pinned.ok()) {
    inject::LogDebug(pinned.message() + "; after a sticky CUDA error the kernels completed "
                     "since the last flush lose their timestamps");
  }
  // We hand out zeroed buffers (BufferPool), so CUPTI need not memset each one on the
  // program's thread.
  Status zeroed = SetAttribute<std::uint8_t>(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, 1,
                                             "declaring activity buffers zeroed");
  if (!zeroed.ok()) inject::LogDebug(zeroed.message());
  // Linux thread ids (gettid) instead of truncated pthread_t values: they match `ps -L`,
  // gdb and other tools.
  Status thread_ids = CuptiStatus(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM),
                                  "selecting system thread ids");
  if (!thread_ids.ok()) inject::LogDebug(thread_ids.message());
  GPUSCOPE_RETURN_IF_ERROR(
      CuptiStatus(cuptiActivityRegisterCallbacks(OnBufferRequested, OnBufferCompleted),
                  "registering the activity buffer callbacks"));
  Status period =
      CuptiStatus(cuptiActivityFlushPeriod(flush_period_ms), "setting CUPTI's flush period");
  if (!period.ok()) inject::LogDebug(period.message());
  inject::LogDebug("activity configured: device buffer " +
                   std::to_string(kDeviceBufferBytes >> 20) + " MiB, CUPTI flush period " +
                   std::to_string(flush_period_ms) + " ms");
  return Status();
}

Status EnableDescriptiveKinds() { return EnableKinds(kDescriptiveKinds); }

void SetTracingScope(const TraceScope& scope) {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  g_scope = scope;
}

Status EnableGraphTrace() {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  if (!g_scope.cuda_gpu || g_scope.cuda_graph_trace != CudaGraphTrace::kGraph) return Status();
  const CUpti_ActivityKind kinds[] = {CUPTI_ACTIVITY_KIND_GRAPH_TRACE};
  return EnableKinds(kinds);
}

Status EnableTracingKinds() {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  if (g_tracing_enabled) return Status();
  g_tracing_enabled = true;
  return EnableKinds(TracingKindsOf(g_scope));
}

void DisableTracingKinds() {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  if (!g_tracing_enabled) return;
  g_tracing_enabled = false;
  for (CUpti_ActivityKind kind : TracingKindsOf(g_scope)) cuptiActivityDisable(kind);
  inject::LogDebug("tracing activity kinds disabled");
}

bool TracingKindsEnabled() {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  return g_tracing_enabled;
}

SerialKernelRecords::SerialKernelRecords() {
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  // Only where kernel records are being taken (--trace may leave the GPU's work out).
  if (!g_tracing_enabled || !g_scope.cuda_gpu) return;
  // Enabling KERNEL first left the kernel timing code in (H200, 2026-11-28: CUPTI keeps the
  // two kinds apart), so CONCURRENT_KERNEL goes off first, and back on if KERNEL fails.
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL) != CUPTI_SUCCESS) {
    cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
    return;
  }
  switched_ = true;
}

SerialKernelRecords::~SerialKernelRecords() {
  if (!switched_) return;
  std::lock_guard<std::mutex> lock(g_kinds_mutex);
  // Back to concurrent records unless tracing stopped meanwhile (cudaProfilerStop).
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_KERNEL);
  if (g_tracing_enabled) cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
}

Status FlushAll(bool forced) {
  return CuptiStatus(cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0),
                     forced ? "forced flush" : "flush");
}

std::uint64_t TakeDroppedRecords(CUctx_st* context) {
  std::uint64_t total = 0;
  std::size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS) total += dropped;
  if (context != nullptr) {
    dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, 0, &dropped) == CUPTI_SUCCESS) {
      total += dropped;
    }
  }
  return total;
}

model::Timestamp Now() {
  std::uint64_t timestamp = 0;
  if (cuptiGetTimestamp(&timestamp) == CUPTI_SUCCESS) return timestamp;
  // CUPTI's default clock is CLOCK_REALTIME in ns (notes/cupti.md 2.4): same clock.
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<model::Timestamp>(now.tv_sec) * 1'000'000'000ull +
         static_cast<model::Timestamp>(now.tv_nsec);
}

}  // namespace gpuscope::cupti
