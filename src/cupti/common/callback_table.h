// Where a CUPTI callback goes: gpuscope's one subscriber callback (callbacks.h) hands every
// callback to an ordered table of handlers, one slot per feature. A feature registers its
// handler when it is enabled; the callback passes the registered handlers in slot order until
// one consumes it. A new feature that needs callbacks adds a slot here, at the place its
// order asks for, and registers its handler where it is enabled: no other feature changes.
//
// The callback runs on the program's threads, inside its CUDA calls, from the first enabled
// callback until the process ends (contexts are destroyed after gpuscope's exit handler). So a
// slot is published once and never withdrawn (a registered handler must live until the
// process ends), reading the table takes no lock and allocates nothing, and nothing thrown by
// a handler leaves Dispatch.
#pragma once

#include <cupti.h>

#include <array>
#include <atomic>
#include <cstddef>

namespace gpuscope::cupti {

// The order a callback reaches the features in, declared once. Why this order:
//   kContextsArrive   first: a new context is in the live list and has its GPU clock entry
//                     before any feature is told of it.
//   kNvtxRangeStarts  an nvtxRangeStart id is recorded for the trace before the profiler's
//                     app-range takes its NVTX callback.
//   kOwnReplay        before every other API handler, and consumes: the calls gpuscope makes
//                     while replaying a launch are not the program's, no feature may see them.
//   kBacktraces,      see every program call, those consumed below included: a capture call,
//   kApiCapture       a synchronisation or a launch still takes its stack and is recorded.
//   kStreamCapture,   each consumes its own calls (the capture calls, the calls that wait for
//   kStickyErrors,    the GPU, the kernel launches): no call is two of these, so consuming
//   kKernelProfiler   only spares the later handlers a look.
//   kGpuMetricSampler told of a context after it arrived, and of its destruction before its
//                     records are flushed (kContextsLeave).
//   kProfilerControl  cudaProfilerStart/Stop turn the tracing kinds on and off after the
//                     profiler's app-range took the same call as a range boundary.
//   kContextsLeave    last: a context's records are flushed and it leaves the live list once
//                     every feature has forgotten it.
enum class CallbackSlot : std::size_t {
  kContextsArrive,
  kNvtxRangeStarts,
  kOwnReplay,
  kBacktraces,
  kApiCapture,
  kStreamCapture,
  kStickyErrors,
  kKernelProfiler,
  kGpuMetricSampler,
  kProfilerControl,
  kContextsLeave,
  kCount,
};

// A feature's part of the subscriber callback. `data` is what CUPTI passed for `domain`
// (CUpti_ResourceData, CUpti_NvtxData, CUpti_CallbackData...), never null. Returns whether the
// callback is consumed: the handlers after this one do not see it.
class CallbackHandler {
 public:
  virtual bool Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) = 0;

 protected:
  // Never destroyed through the table: a handler outlives every callback.
  ~CallbackHandler() = default;
};

// A handler that is a plain function (a feature whose state is its own file's).
class CallbackFunction final : public CallbackHandler {
 public:
  using Function = bool (*)(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data);
  constexpr explicit CallbackFunction(Function function) : function_(function) {}
  bool Handle(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) override {
    return function_(domain, cbid, data);
  }

 private:
  Function function_;
};

// The runtime or driver API callback's data, or nullptr for the other domains.
const CUpti_CallbackData* ApiCallbackData(CUpti_CallbackDomain domain, const void* data);

class CallbackTable {
 public:
  constexpr CallbackTable() = default;
  CallbackTable(const CallbackTable&) = delete;
  CallbackTable& operator=(const CallbackTable&) = delete;

  // Publishes `handler` in `slot` for the rest of the process. False, and nothing changes,
  // when the slot has a handler already (a feature is enabled once per process).
  bool Register(CallbackSlot slot, CallbackHandler& handler);
  bool Registered(CallbackSlot slot) const;

  // The callback, on any thread: the registered handlers in slot order until one consumes it.
  // Nothing when `data` is null or the table ignores callbacks. Never throws.
  void Dispatch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) noexcept;

  // In a child forked without exec, and once the session ends: no handler runs from now on.
  void IgnoreFromNowOn();

 private:
  std::array<std::atomic<CallbackHandler*>, static_cast<std::size_t>(CallbackSlot::kCount)>
      slots_{};
  std::atomic<bool> ignoring_{false};
};

// The process's table, the one the subscriber callback dispatches to. Never destroyed.
CallbackTable& ProcessCallbackTable();

}  // namespace gpuscope::cupti
