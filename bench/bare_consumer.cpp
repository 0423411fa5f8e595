// The bare CUPTI consumer: the cheapest possible CUPTI activity tool, used by
// scripts/bench-overhead.sh as the floor that no CUPTI-based tracer can beat. Loaded like
// gpuscope's injection library (CUDA_INJECTION64_PATH=.../libbare_consumer.so), it enables
// exactly the activity kinds gpuscope enables (src/cupti/tracing/README.md, "Activity kinds") with the
// same buffer size, counts the records CUPTI hands back and frees the buffers; it translates
// nothing and writes nothing. At exit it prints
//   bare_consumer: records <n> dropped <n>
// on stderr; with BARE_CONSUMER_VERBOSE=1 also one line per activity kind and the CUPTI
// calls' results, which makes it a quick check of what a program launches.
// BARE_CONSUMER_KINDS=10,5 (CUpti_ActivityKind numbers) enables only those kinds instead: the
// probe that tells which activity kinds cost what on the launch path (bench/RESULTS.md).
//
// It lives in bench/, outside src/cupti, on purpose: it is a stand-in for "any CUPTI
// tool", not part of gpuscope.
#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// Must equal the injection library's activity buffer size (src/cupti), so that
// both pay the same number of buffer requests.
constexpr size_t kBufferBytes = 8 * 1024 * 1024;
constexpr size_t kBufferAlignment = 8;

// src/cupti/tracing/README.md's list, in its order.
constexpr CUpti_ActivityKind kEnabledKinds[] = {
    CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
    CUPTI_ACTIVITY_KIND_MEMCPY,
    CUPTI_ACTIVITY_KIND_MEMCPY2,
    CUPTI_ACTIVITY_KIND_MEMSET,
    CUPTI_ACTIVITY_KIND_RUNTIME,
    CUPTI_ACTIVITY_KIND_DRIVER,
    CUPTI_ACTIVITY_KIND_MEMORY2,
    CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
    CUPTI_ACTIVITY_KIND_MARKER,
    CUPTI_ACTIVITY_KIND_MARKER_DATA,
    CUPTI_ACTIVITY_KIND_OVERHEAD,
    CUPTI_ACTIVITY_KIND_DEVICE,
    CUPTI_ACTIVITY_KIND_CONTEXT,
    CUPTI_ACTIVITY_KIND_STREAM,
};

constexpr int kMaxKind = 128;  // kinds above this are counted under "other"
std::atomic<std::uint64_t> g_records{0};
std::atomic<std::uint64_t> g_records_by_kind[kMaxKind + 1];
bool g_verbose = false;

void Report(const char* call, CUptiResult result) {
  if (result == CUPTI_SUCCESS && !g_verbose) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "bare_consumer: %s: %s\n", call, text ? text : "unknown result");
}

void CUPTIAPI BufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlignment, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;  // a NULL buffer makes CUPTI drop (and count) records
  *max_records = 0;
}

void CUPTIAPI BufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid_size) {
  std::uint64_t count = 0;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_size, &record) == CUPTI_SUCCESS) {
    ++count;
    // Only the verbose mode looks inside records, so the benchmark floor stays a pure count.
    if (g_verbose) {
      int kind = static_cast<int>(record->kind);
      g_records_by_kind[(kind >= 0 && kind < kMaxKind) ? kind : kMaxKind].fetch_add(1);
    }
  }
  g_records.fetch_add(count, std::memory_order_relaxed);
  std::free(buffer);
}

void PrintCountsAtExit() {
  Report("cuptiActivityFlushAll", cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  size_t dropped = 0;
  Report("cuptiActivityGetNumDroppedRecords",
         cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped));
  std::fprintf(stderr, "bare_consumer: records %llu dropped %zu\n",
               static_cast<unsigned long long>(g_records.load()), dropped);
  if (!g_verbose) return;
  for (int kind = 0; kind <= kMaxKind; ++kind) {
    std::uint64_t n = g_records_by_kind[kind].load();
    if (n != 0)
      std::fprintf(stderr, "bare_consumer: kind %d records %llu\n", kind,
                   static_cast<unsigned long long>(n));
  }
}

}  // namespace

// The CUDA driver calls this from cuInit when CUDA_INJECTION64_PATH names this library.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::atomic<bool> initialized{false};
  if (initialized.exchange(true)) return 1;
  const char* verbose = std::getenv("BARE_CONSUMER_VERBOSE");
  g_verbose = verbose != nullptr && std::strcmp(verbose, "1") == 0;
  if (g_verbose) std::fprintf(stderr, "bare_consumer: InitializeInjection\n");

  Report("cuptiActivityRegisterCallbacks",
         cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted));
  if (const char* kinds = std::getenv("BARE_CONSUMER_KINDS")) {
    for (char* end = nullptr;; kinds = end + 1) {
      long kind = std::strtol(kinds, &end, 10);
      if (end == kinds) break;
      Report("cuptiActivityEnable", cuptiActivityEnable(static_cast<CUpti_ActivityKind>(kind)));
      if (*end != ',') break;
    }
  } else {
    for (CUpti_ActivityKind kind : kEnabledKinds) {
      Report("cuptiActivityEnable", cuptiActivityEnable(kind));
    }
  }
  std::atexit(PrintCountsAtExit);
  return 1;
}
