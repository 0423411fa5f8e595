// GPU clock pairs for the report's clock_samples (schema.sql): CUPTI 13 has no call that reads a
// GPU's own clock (cuptiDeviceGetTimestamp went with the Event API), so gpuscope reads it with
// a kernel of its own: one thread stores %globaltimer into pinned host memory (gpu_clock.cu,
// carried as PTX and loaded with the driver API as the L2 flush is), launched on a private
// non-blocking stream of the context, while the flusher thread reads the host clocks before
// the launch and again once the value is seen (inject::GpuClockPair: the midpoint and half the
// window as the uncertainty).
//
// Inside someone else's process, so:
// - only from the flusher thread's periodic and final flushes, never inside a CUPTI callback
//   or a signal handler, and not under `gpuscope profile` (a kernel of ours would land in the
//   range the profiler measures);
// - never while a stream capture may be under way (inject::CaptureGate, counted from the
//   capture calls' callbacks): the sample is then the host pair only;
// - nothing that synchronises: the value is polled in host memory for at most kPollTimeout; a
//   kernel still queued behind the program's work then is left to land, that device skips
//   this flush and the next one finds its slot filled (counted in skipped());
// - gpuscope's calls are not the program's: the thread is marked as gpuscope's own
//   (OwnReplayScope) and the callbacks of the driver calls it makes are on for the sample, so
//   their correlation ids are noted and the record router leaves their API records, the
//   kernel, the stream and the pinned allocation out of the trace (inject/own_replay_calls);
// - at most one pair per device per flush (the first live context of each device);
// - the first failure says one line and turns GPU pairs off for the run.
// Cost per device and flush: a context push/pop, one launch, the kernel's latency (~10-20 us).
#pragma once

#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/records.h"
#include "util/status.h"

namespace gpuscope::cupti {

// The PTX of gpu_clock.cu, carried by the injection (gpu_clock_ptx.cpp).
std::string_view GpuClockPtx();

class GpuClock {
 public:
  static constexpr std::chrono::microseconds kPollTimeout{1000};

  // One GPU pair per device of `contexts` (the program's live contexts), none while a
  // capture may be under way or once disabled. On the flusher thread only.
  std::vector<model::ClockSampleRecord> Sample(const std::vector<CUcontext>& contexts);

  // No GPU pairs from now on (`why` goes to the debug log; an error is said by Sample).
  void Disable(std::string_view why);
  bool disabled() const;
  // Samples skipped: a capture under way, or the clock kernel still queued.
  std::uint64_t skipped() const;

  // The context is going (its destroy callback, on the program's thread): never touched again
  // (waits for a sample in progress, at most kForgetWait, so that it does not outlive it).
  void ForgetContext(CUcontext context);
  // A context was created (its address may be a destroyed one's).
  void NoteContextCreated(CUcontext context);

 private:
  static constexpr std::chrono::milliseconds kForgetWait{50};

  struct ContextClock {
    CUdevice device = 0;
    CUfunction function = nullptr;
    CUstream stream = nullptr;
    volatile std::uint64_t* slot = nullptr;  // pinned host memory the kernel writes
    CUdeviceptr device_slot = 0;
    bool in_flight = false;  // a launch whose value was not seen yet
  };

  StatusOr<ContextClock*> For(CUcontext context);
  // One pair of the current context into `pairs`; an error disables.
  Status SampleCurrent(ContextClock& clock, std::vector<model::ClockSampleRecord>& pairs);
  bool Dying(CUcontext context) const;

  std::timed_mutex sampling_;  // held across a sample's driver calls
  std::unordered_map<CUcontext, ContextClock> contexts_;  // under sampling_
  mutable std::mutex state_;  // guards the fields below (never held across a driver call)
  std::unordered_set<CUcontext> dying_;
  bool disabled_ = false;
  std::uint64_t skipped_ = 0;
};

// The process's GPU clock (the backend samples it, the context callbacks tell it of contexts;
// never destroyed: callbacks come until the process ends).
GpuClock& ProcessGpuClock();

}  // namespace gpuscope::cupti
