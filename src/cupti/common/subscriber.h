// Claiming CUPTI for this process: the one subscriber, whose callback hands everything to the
// process's callback table (callback_table.h).
//
// Only one CUPTI subscriber may exist per process, and activity callbacks are process-wide
// too: two tools sharing CUPTI corrupt each other's records (notes/cupti.md 6.3, 6.4). So
// Subscribe() runs first; if someone else owns CUPTI (torch.profiler, Nsight Systems,
// cuda-gdb...), we stand down and touch nothing else.
#pragma once

#include <cupti.h>

#include <span>
#include <vector>

#include "util/status.h"

namespace gpuscope::cupti {

// Checks that the CUPTI loaded in this process is at least the version we were built
// against, then subscribes. An error is the whole stand-down sentence, for LogError.
Status Subscribe();
void Unsubscribe();

// The subscriber, or nullptr before Subscribe and after Unsubscribe.
CUpti_SubscriberHandle Subscriber();

// Turns on one callback of the subscriber; an error says `what` failed.
Status EnableCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const char* what);

// For a scope of gpuscope's own driver calls (gpu_clock.h, on a thread inside OwnReplayScope):
// the callbacks of `cbids` on, so that the calls' correlation ids are noted as gpuscope's own
// and their records left out of the trace; each is put back as it was when the scope ends.
class DriverCallbacksOn {
 public:
  explicit DriverCallbacksOn(std::span<const CUpti_CallbackId> cbids);
  ~DriverCallbacksOn();
  DriverCallbacksOn(const DriverCallbacksOn&) = delete;
  DriverCallbacksOn& operator=(const DriverCallbacksOn&) = delete;
  // Not ok when a callback could not be turned on: the calls must not be made then.
  const Status& status() const { return status_; }

 private:
  std::vector<CUpti_CallbackId> enabled_;  // the ones this scope turned on
  Status status_;
};

}  // namespace gpuscope::cupti
