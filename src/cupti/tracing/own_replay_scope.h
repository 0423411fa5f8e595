// What every pass of gpuscope's own replay of a profiled launch needs around it (the source
// passes and the counter passes, both run from the launch's driver enter callback):
//   OwnReplayScope  marks this thread as replaying: the CUDA calls gpuscope makes are not the
//                   program's (their callbacks are ignored, their correlation ids noted so that
//                   their activity records stay out of the trace: inject/own_replay_calls.h)
//   TracingPause    the tracing activity kinds off for the scope (SASS patching counts nothing
//                   while they are on; replayed launches must not reach the trace), the time
//                   they were off counted so that readers can say what the trace may lack
//   SynchronizeContext  waits for the current context's work (the program's earlier work before
//                   a checkpoint; a replayed launch before the next step)
#pragma once

#include <chrono>
#include <cstdint>

#include "cupti/common/callback_table.h"
#include "util/status.h"

namespace gpuscope::cupti {

// Whether this thread is inside gpuscope's own replay (its CUDA calls are not the program's).
bool ReplayingOnThisThread();
// Inside the replay: whether `correlation_id` is the program's launch being replayed. CUPTI
// gives the calls gpuscope makes inside the program's launch call the program call's
// correlation id (seen on the H100): those ids are the program's records, never left out.
bool IsReplayedProgramCall(std::uint32_t correlation_id);

// The callback handler (CallbackSlot::kOwnReplay) that consumes the runtime and driver calls
// gpuscope makes while replaying on this thread, their correlation ids noted as its own.
CallbackHandler& OwnReplayCallbacks();

// Sets the thread's replay flag, and the ids of the program's launch calls, for a scope.
class OwnReplayScope {
 public:
  OwnReplayScope(std::uint32_t call_id, std::uint32_t record_id);
  ~OwnReplayScope();
  OwnReplayScope(const OwnReplayScope&) = delete;
  OwnReplayScope& operator=(const OwnReplayScope&) = delete;

 private:
  bool outer_;  // nested scopes (source passes inside the counter passes' launch) keep the ids
};

class TracingPause {
 public:
  TracingPause();
  ~TracingPause();
  TracingPause(const TracingPause&) = delete;
  TracingPause& operator=(const TracingPause&) = delete;

 private:
  bool paused_;
  std::chrono::steady_clock::time_point began_;
};

// cuCtxSynchronize on the calling thread's context; an error says a replayed launch failed.
Status SynchronizeContext();

}  // namespace gpuscope::cupti
