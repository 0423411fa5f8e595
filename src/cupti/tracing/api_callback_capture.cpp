#include "cupti/tracing/api_callback_capture.h"

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

#include "cupti/tracing/activity.h"
#include "cupti/tracing/hot_api_calls.h"
#include "inject/captured_api_calls.h"
#include "inject/collector.h"
#include "model/records.h"

namespace gpuscope::cupti {
namespace {

using inject::CapturedCall;
using inject::CapturedCallCount;
using inject::CapturedSection;

// 8192 calls x 32 bytes = 256 KiB per thread: a launch-bound loop (~500,000 calls/s) fills
// it every ~16 ms, so the owner hands it over far more often than the flusher comes by.
constexpr std::uint32_t kThreadCalls = 8192;
constexpr std::uint32_t kNotHeld = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t kNoMin = std::numeric_limits<std::uint64_t>::max();

// One hot call's counters on one thread. Written by the owner only (relaxed stores, `calls`
// last with release), read by the drains (`calls` first with acquire).
struct HotCounter {
  std::atomic<std::uint64_t> calls{0};
  std::atomic<std::uint64_t> total_ns{0};
  std::atomic<std::uint64_t> min_ns{kNoMin};
  std::atomic<std::uint64_t> max_ns{0};
  std::atomic<std::uint64_t> first_start{0};
  std::atomic<std::uint64_t> last_end{0};
  std::uint64_t drained_calls = 0;  // under the thread's drain_mutex
  std::uint64_t drained_total = 0;
};

struct ThreadCapture {
  // The owner thread only.
  std::uint32_t depth = 0;
  std::uint64_t outer_start = 0;  // of the outermost call in progress
  bool held = false;              // the starting thread's first calls are held (header)
  bool used_hot = false;
  std::uint32_t handovers = 0;  // HandOverFull calls: slots before them are reused
  // The runtime's prologue: driver calls it makes just before its own call, at depth 0
  // (cuKernelGetName before each launch; inject/api_nesting.h). Appended, and taken back when
  // a runtime call begins within kPrologueGapNs of the last one's end.
  std::uint32_t prologue_from = kNotHeld;
  std::uint32_t prologue_handovers = 0;
  std::uint64_t prologue_end = 0;
  // Shared with the drains.
  std::mutex drain_mutex;
  std::atomic<std::uint32_t> written{0};       // calls[0, written) are complete
  std::atomic<std::uint32_t> held_from{kNotHeld};  // calls from here on are held
  std::atomic<bool> any_hot{false};
  std::uint32_t taken = 0;  // under drain_mutex: calls[0, taken) are handed over
  std::uint32_t thread_id = 0;
  HotCounter hot[kHotCallSlots];
  CapturedCall calls[kThreadCalls];
};

std::atomic<bool> g_started{false};
std::atomic<bool> g_recording{false};
std::uint32_t g_process_id = 0;
std::uint64_t g_start_ns = 0;  // the capture's start: the start of calls whose enter we missed
std::atomic<std::uint64_t> g_lost{0};

// Never destroyed: threads end (and drain) until the very end of the process.
std::mutex g_threads_mutex;
std::vector<ThreadCapture*>& AllThreads() {
  static auto* threads = new std::vector<ThreadCapture*>();
  return *threads;
}
std::vector<ThreadCapture*>& FreeThreads() {
  static auto* threads = new std::vector<ThreadCapture*>();
  return *threads;
}

std::uint64_t NowNs() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::uint64_t>(now.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(now.tv_nsec);
}

std::uint32_t DomainOf(CUpti_CallbackDomain domain) {
  return static_cast<std::uint32_t>(domain == CUPTI_CB_DOMAIN_RUNTIME_API
                                        ? model::ApiDomain::kRuntime
                                        : model::ApiDomain::kDriver);
}

// Fills pool buffers with sections and hands them to the collector.
class Packer {
 public:
  explicit Packer(inject::Collector* collector) : collector_(collector) {}
  ~Packer() { Complete(); }

  // Bytes free at the end of the current buffer, at least `needed` (a fresh buffer when the
  // current one has less); 0 when the pool refuses or its buffers are smaller than that.
  std::size_t Room(std::size_t needed) {
    if (buffer_ == nullptr || size_ - used_ < needed) {
      Complete();
      std::size_t max_records = 0;
      collector_->OnBufferRequested(&buffer_, &size_, &max_records);
      if (buffer_ != nullptr && size_ < needed) Complete();
    }
    return buffer_ == nullptr ? 0 : size_ - used_;
  }

  // The next `bytes` of the current buffer (Room said they are free).
  std::uint8_t* Take(std::size_t bytes) {
    std::uint8_t* at = buffer_ + used_;
    used_ += bytes;
    return at;
  }

  void Complete() {
    if (buffer_ != nullptr) collector_->OnCapturedCallsCompleted(buffer_, used_);
    buffer_ = nullptr;
    size_ = used_ = 0;
  }

  void Lost(std::uint64_t records) {
    g_lost.fetch_add(records, std::memory_order_relaxed);
    collector_->AddDroppedRecords(records);
  }

 private:
  inject::Collector* collector_;
  std::uint8_t* buffer_ = nullptr;
  std::size_t size_ = 0;
  std::size_t used_ = 0;
};

// Under thread.drain_mutex: packs what the thread completed since the last drain (`final`:
// its held calls too, which from then on count as the program's).
void DrainThread(ThreadCapture& thread, Packer& packer, bool final) {
  std::uint32_t limit = thread.written.load(std::memory_order_acquire);
  const std::uint32_t held_from = thread.held_from.load(std::memory_order_acquire);
  if (held_from != kNotHeld) {
    if (final) {
      thread.held_from.store(kNotHeld, std::memory_order_release);
    } else {
      limit = std::min(limit, held_from);
    }
  }
  limit = std::max(limit, thread.taken);
  CapturedCallCount counts[kHotCallSlots];
  std::uint32_t count_rows = 0;
  if (thread.any_hot.load(std::memory_order_acquire)) {
    for (int slot = 0; slot < kHotCallSlots; ++slot) {
      HotCounter& hot = thread.hot[slot];
      const std::uint64_t seen = hot.calls.load(std::memory_order_acquire);
      if (seen == hot.drained_calls) continue;
      const std::uint64_t total = hot.total_ns.load(std::memory_order_relaxed);
      const HotCall call = HotCallOfSlot(slot);
      CapturedCallCount& row = counts[count_rows++];
      row.calls = seen - hot.drained_calls;
      row.total_ns = total - hot.drained_total;
      row.min_ns = hot.min_ns.load(std::memory_order_relaxed);
      row.max_ns = hot.max_ns.load(std::memory_order_relaxed);
      row.first_start = hot.first_start.load(std::memory_order_relaxed);
      row.last_end = hot.last_end.load(std::memory_order_relaxed);
      row.cbid = call.cbid;
      row.domain = DomainOf(call.domain);
      hot.drained_calls = seen;
      hot.drained_total = total;
    }
  }
  // One section per buffer it reaches: a thread's calls may not fit in what a buffer has left.
  std::uint32_t next = thread.taken;
  bool counts_left = count_rows > 0;
  while (next < limit || counts_left) {
    const std::size_t needed =
        sizeof(CapturedSection) +
        (next < limit ? sizeof(CapturedCall) : count_rows * sizeof(CapturedCallCount));
    const std::size_t room = packer.Room(needed);
    if (room == 0) {
      packer.Lost((limit - next) + (counts_left ? count_rows : 0));
      break;
    }
    const std::size_t space = room - sizeof(CapturedSection);
    const auto calls = static_cast<std::uint32_t>(
        std::min<std::size_t>(limit - next, space / sizeof(CapturedCall)));
    std::uint32_t counts_here = 0;
    if (next + calls == limit && counts_left &&
        space - calls * sizeof(CapturedCall) >= count_rows * sizeof(CapturedCallCount)) {
      counts_here = count_rows;
      counts_left = false;
    }
    CapturedSection section;
    section.process_id = g_process_id;
    section.thread_id = thread.thread_id;
    section.calls = calls;
    section.counts = counts_here;
    std::uint8_t* at = packer.Take(inject::CapturedSectionBytes(calls, counts_here));
    std::memcpy(at, &section, sizeof(section));
    at += sizeof(section);
    std::memcpy(at, thread.calls + next, calls * sizeof(CapturedCall));
    at += calls * sizeof(CapturedCall);
    std::memcpy(at, counts, counts_here * sizeof(CapturedCallCount));
    next += calls;
  }
  thread.taken = limit;
}

// The owner's buffer is full: hand it over and start again from its beginning.
void HandOverFull(ThreadCapture& thread) {
  std::lock_guard<std::mutex> lock(thread.drain_mutex);
  thread.held_from.store(kNotHeld, std::memory_order_release);  // a full buffer is not held
  thread.held = false;
  if (inject::Collector* collector = BufferCollector()) {
    Packer packer(collector);
    DrainThread(thread, packer, /*final=*/false);
  } else {
    g_lost.fetch_add(thread.written.load() - thread.taken, std::memory_order_relaxed);
  }
  thread.taken = 0;
  thread.written.store(0, std::memory_order_release);
  ++thread.handovers;
}

void Append(ThreadCapture& thread, const CapturedCall& call) {
  std::uint32_t at = thread.written.load(std::memory_order_relaxed);
  if (at == kThreadCalls) {
    HandOverFull(thread);
    at = 0;
  }
  thread.calls[at] = call;
  thread.written.store(at + 1, std::memory_order_release);
}

void Count(ThreadCapture& thread, int slot, std::uint64_t start, std::uint64_t end) {
  HotCounter& hot = thread.hot[slot];
  const std::uint64_t ns = end - start;
  const std::uint64_t calls = hot.calls.load(std::memory_order_relaxed);
  if (ns < hot.min_ns.load(std::memory_order_relaxed)) {
    hot.min_ns.store(ns, std::memory_order_relaxed);
  }
  if (ns > hot.max_ns.load(std::memory_order_relaxed)) {
    hot.max_ns.store(ns, std::memory_order_relaxed);
  }
  if (calls == 0) hot.first_start.store(start, std::memory_order_relaxed);
  hot.last_end.store(end, std::memory_order_relaxed);
  hot.total_ns.store(hot.total_ns.load(std::memory_order_relaxed) + ns,
                     std::memory_order_relaxed);
  hot.calls.store(calls + 1, std::memory_order_release);
  if (!thread.used_hot) {
    thread.used_hot = true;
    thread.any_hot.store(true, std::memory_order_release);
  }
}

// The starting thread's held calls: kept as the program's, or dropped as the runtime's.
void ReleaseHeld(ThreadCapture& thread, bool keep) {
  std::lock_guard<std::mutex> lock(thread.drain_mutex);
  thread.held = false;
  const std::uint32_t held_from = thread.held_from.load(std::memory_order_acquire);
  if (held_from == kNotHeld) return;  // a final drain took them already
  if (!keep) thread.written.store(held_from, std::memory_order_release);
  thread.held_from.store(kNotHeld, std::memory_order_release);
}

// The runtime's prologue calls (inject/api_nesting.h IsRuntimePrologueCall) by callback id.
bool IsRuntimePrologueCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  return domain == CUPTI_CB_DOMAIN_DRIVER_API &&
         (cbid == CUPTI_DRIVER_TRACE_CBID_cuKernelGetName ||
          cbid == CUPTI_DRIVER_TRACE_CBID_cuLibraryGetKernel ||
          cbid == CUPTI_DRIVER_TRACE_CBID_cuLibraryLoadData);
}

// As api_nesting's prologue_gap_ns: the runtime's prologue ends at most this long before its
// own call begins (0.2-8 us seen on the H200)...
constexpr std::uint64_t kPrologueGapNs = 10'000;
// ...except before a kernel launch, whose callback comes after the runtime loaded the kernel's
// module when that is its first launch (lazy loading: one cuKernelGetName of 2,000 launches
// was left as the program's on the H100, 2026-12-07).
constexpr std::uint64_t kLaunchPrologueGapNs = 5'000'000;

bool IsRuntimeKernelLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API) return false;
  switch (cbid) {
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000:
    case CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000:
      return true;
    default:
      return false;
  }
}

// A call begins at depth 0 (`now`): the prologue calls appended before it were the runtime's
// when it is a runtime call close enough, and are taken back unless a drain took them already.
void SettlePrologue(ThreadCapture& thread, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                    std::uint64_t now) {
  const std::uint32_t from = thread.prologue_from;
  thread.prologue_from = kNotHeld;
  const std::uint64_t gap =
      IsRuntimeKernelLaunch(domain, cbid) ? kLaunchPrologueGapNs : kPrologueGapNs;
  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API || now - thread.prologue_end > gap ||
      thread.handovers != thread.prologue_handovers) {
    return;
  }
  std::lock_guard<std::mutex> lock(thread.drain_mutex);
  if (thread.taken <= from && thread.written.load(std::memory_order_relaxed) > from &&
      thread.held_from.load(std::memory_order_relaxed) == kNotHeld) {
    thread.written.store(from, std::memory_order_release);
  }
}

void ResetForReuse(ThreadCapture& thread) {
  thread.depth = 0;
  thread.prologue_from = kNotHeld;
  thread.held = false;
  thread.used_hot = false;
  thread.any_hot.store(false);
  thread.written.store(0);
  thread.held_from.store(kNotHeld);
  thread.taken = 0;
  for (HotCounter& hot : thread.hot) {
    hot.calls.store(0);
    hot.total_ns.store(0);
    hot.min_ns.store(kNoMin);
    hot.max_ns.store(0);
    hot.first_start.store(0);
    hot.last_end.store(0);
    hot.drained_calls = hot.drained_total = 0;
  }
}

thread_local ThreadCapture* t_capture = nullptr;
thread_local bool t_exited = false;

// Constructed on a thread's first callback; at the thread's end it drains the thread's
// calls and gives its buffer back for the next thread.
struct ThreadExit {
  ThreadCapture* capture = nullptr;
  ~ThreadExit() {
    t_exited = true;
    t_capture = nullptr;
    if (capture == nullptr) return;
    try {
      {
        std::lock_guard<std::mutex> lock(capture->drain_mutex);
        if (inject::Collector* collector = BufferCollector()) {
          Packer packer(collector);
          DrainThread(*capture, packer, /*final=*/true);
        }
        ResetForReuse(*capture);
      }
      std::lock_guard<std::mutex> lock(g_threads_mutex);
      FreeThreads().push_back(capture);
    } catch (...) {
    }
  }
};
thread_local ThreadExit t_exit;

ThreadCapture* AcquireThreadCapture() {
  if (t_exited) return nullptr;  // CUDA calls from other thread-local destructors: not recorded
  ThreadCapture* capture = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_threads_mutex);
    std::vector<ThreadCapture*>& free = FreeThreads();
    if (!free.empty()) {
      capture = free.back();
      free.pop_back();
    } else {
      capture = new (std::nothrow) ThreadCapture();
      if (capture == nullptr) return nullptr;
      AllThreads().push_back(capture);
    }
  }
  capture->thread_id = static_cast<std::uint32_t>(syscall(SYS_gettid));
  t_capture = capture;
  t_exit.capture = capture;
  return capture;
}

ThreadCapture* ThisThread() {
  ThreadCapture* capture = t_capture;
  return capture != nullptr ? capture : AcquireThreadCapture();
}

CapturedCall MakeCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                      const CUpti_CallbackData& data, std::uint64_t start, std::uint64_t end) {
  CapturedCall call;
  call.start = start;
  call.end = end;
  call.cbid = cbid;
  call.correlation_id = data.correlationId;
  // cudaError_t and CUresult are both enums of int size.
  if (data.functionReturnValue != nullptr) {
    std::memcpy(&call.return_value, data.functionReturnValue, sizeof(call.return_value));
  }
  call.domain = DomainOf(domain);
  return call;
}

}  // namespace

void BeginApiCallbackCapture(bool recording) {
  g_process_id = static_cast<std::uint32_t>(getpid());
  g_start_ns = NowNs();
  g_recording.store(recording, std::memory_order_release);
  if (ThreadCapture* capture = ThisThread()) {
    std::lock_guard<std::mutex> lock(capture->drain_mutex);
    capture->held = true;
    capture->depth = 0;
    capture->held_from.store(capture->written.load(), std::memory_order_release);
  }
  g_started.store(true, std::memory_order_release);
}

bool ApiCallbackCaptureStarted() { return g_started.load(std::memory_order_acquire); }

void SetApiCallbackRecording(bool on) { g_recording.store(on, std::memory_order_release); }

void OnApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const CUpti_CallbackData& data) {
  if (!g_started.load(std::memory_order_relaxed)) return;
  ThreadCapture* thread = ThisThread();
  if (thread == nullptr) return;
  if (data.callbackSite == CUPTI_API_ENTER) {
    if (thread->depth++ == 0) {
      thread->outer_start = NowNs();
      if (thread->prologue_from != kNotHeld) {
        SettlePrologue(*thread, domain, cbid, thread->outer_start);
      }
      // A runtime call begins at depth 0: what was held came before it, the program's.
      if (thread->held && domain == CUPTI_CB_DOMAIN_RUNTIME_API) ReleaseHeld(*thread, true);
    }
    return;
  }
  if (thread->depth == 0) {
    // The exit of a call that began before the capture. On the starting thread it is the
    // call that initialised CUDA: if a runtime call, what was held ran inside it.
    if (!thread->held || !g_recording.load(std::memory_order_relaxed)) return;
    const bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;
    if (runtime) ReleaseHeld(*thread, false);
    Append(*thread, MakeCall(domain, cbid, data, g_start_ns, NowNs()));
    return;
  }
  if (--thread->depth != 0) return;  // nested in an outer call: not the program's
  if (!g_recording.load(std::memory_order_relaxed)) return;
  const std::uint64_t end = NowNs();
  const int slot = HotCallSlot(domain, cbid);
  if (slot >= 0 && !thread->held) {
    Count(*thread, slot, thread->outer_start, end);
  } else {
    Append(*thread, MakeCall(domain, cbid, data, thread->outer_start, end));
    if (!thread->held && IsRuntimePrologueCallback(domain, cbid)) {
      if (thread->prologue_from == kNotHeld) {
        thread->prologue_from = thread->written.load(std::memory_order_relaxed) - 1;
        thread->prologue_handovers = thread->handovers;
      }
      thread->prologue_end = end;
    }
  }
}

void DrainCapturedApiCalls(bool final) {
  if (!g_started.load(std::memory_order_acquire)) return;
  inject::Collector* collector = BufferCollector();
  if (collector == nullptr) return;
  std::vector<ThreadCapture*> threads;
  try {
    std::lock_guard<std::mutex> lock(g_threads_mutex);
    threads = AllThreads();
  } catch (...) {
    return;  // out of memory: the next flush tries again
  }
  Packer packer(collector);
  for (ThreadCapture* thread : threads) {
    std::lock_guard<std::mutex> lock(thread->drain_mutex);
    DrainThread(*thread, packer, final);
  }
}

std::uint64_t CapturedApiCallsLost() { return g_lost.load(std::memory_order_relaxed); }

namespace {

bool CaptureApiCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  if (const CUpti_CallbackData* api = ApiCallbackData(domain, data)) OnApiCallback(domain, cbid, *api);
  return false;
}

constinit CallbackFunction g_api_capture_callbacks{&CaptureApiCall};

}  // namespace

CallbackHandler& ApiCaptureCallbacks() { return g_api_capture_callbacks; }

}  // namespace gpuscope::cupti
