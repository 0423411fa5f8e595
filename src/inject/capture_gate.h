// Whether a stream capture may be under way in the process, so that gpuscope's own GPU work
// (the clock kernel of a GPU clock pair) never runs then: in cudaStreamCaptureModeGlobal a
// call CUDA deems unsafe on any thread invalidates the program's capture, and a launch made
// while a graph is being captured must never end up in it. Vendor-neutral: the CUPTI callbacks
// of the capture calls (cudaStreamBeginCapture*, cuStreamBeginCapture*, their EndCapture)
// report here; the GPU clock asks.
//
// Counting is conservative: a capture counts from the entry of its begin call (before CUDA
// starts it) until its stream's end call returns, whatever that returned (an invalidated
// capture has ended too); a begin that failed counts no more. Streams are counted once each,
// so the runtime call and the driver call inside it (both reported) are one capture, and an
// end on a stream that was not capturing changes nothing. A capture never ended (its stream
// destroyed while capturing) keeps GPU samples off: the safe side.
//
// Race-free with the sampler: the sampler holds the gate (Hold) across its check and its GPU
// calls; a begin call announces itself (pending) before it waits for the gate, so either the
// sample finished before the capture starts, or the sampler sees the capture and skips. The
// wait is bounded (kBeginWait): a stuck sampler delays a begin call by at most that.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>

namespace gpuscope::inject {

class CaptureGate {
 public:
  static constexpr std::chrono::milliseconds kBeginWait{20};

  // A begin-capture call on `stream` is entering: counted from now, waits for a sample in
  // progress (at most kBeginWait).
  void BeginEntered();
  // The begin call returned: `started` tells whether `stream` is now capturing.
  void BeginReturned(std::uintptr_t stream, bool started);
  // An end-capture call on `stream` returned (successfully or not: the capture is over).
  void EndReturned(std::uintptr_t stream);

  // The sampler's side: while a Hold lives and capturing() is false, no capture can start.
  class Hold {
   public:
    explicit Hold(CaptureGate& gate);
    ~Hold();
    Hold(const Hold&) = delete;
    Hold& operator=(const Hold&) = delete;
    // Whether a capture is (or may be) under way: skip the GPU work.
    bool capturing() const;

   private:
    CaptureGate& gate_;
  };

  // Captures counted now (begins entered and not failed, streams not ended).
  std::uint64_t active() const;

 private:
  mutable std::timed_mutex sampling_;
  mutable std::mutex state_;  // guards the counts below
  std::uint64_t pending_ = 0;  // begin calls entered, not yet returned
  std::uint64_t streams_[64] = {};  // capturing streams (a fixed set: no allocation in callbacks)
  std::uint64_t stream_count_ = 0;
  bool overflow_ = false;  // more than 64 streams capturing at once: sticky, GPU samples stay off
};

// The process's gate (the callbacks and the backend's GPU clock share it; never destroyed).
CaptureGate& ProcessCaptureGate();

}  // namespace gpuscope::inject
