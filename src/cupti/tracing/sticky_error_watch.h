// The moment a CUDA call returns a sticky error (model/sticky_errors.h), on the program's thread
// and before the call returns to it: the collector then saves the report while the process is
// still sane, because a program that meets such an error usually dies at its next step
// (abort(), exit(1), a check macro, a supervisor's kill -9).
//
// Watched: the calls that wait for the GPU or ask how it is doing (device, stream and event
// synchronisation and queries, blocking copies), runtime and driver, where an asynchronous
// error surfaces first. Their cost is that of the wait they make, so a callback there is free;
// launches and cudaGetLastError are not watched (they run once per kernel). A program that dies
// after an error surfaced elsewhere is covered by the SIGABRT handler and the exit flush.
//
// The runtime's calls reach the driver: the driver call inside a watched runtime call returns
// the error first, but the runtime call's own record is only complete when it returns, so the
// error is taken at the outermost watched call of the thread.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cupti/common/callback_table.h"
#include "model/records.h"
#include "util/status.h"

namespace gpuscope::cupti {

struct StickyErrorCall {
  std::string api;  // CUPTI's function name, e.g. "cudaDeviceSynchronize"
  model::ApiDomain domain = model::ApiDomain::kRuntime;
  std::int32_t code = 0;
};

// Whether (domain, cbid) is one of the watched calls.
bool IsStickyErrorWatchedCall(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// Turns on the enter and exit callbacks of every watched call for `subscriber`.
Status WatchStickyErrors(CUpti_SubscriberHandle subscriber);

// Follows the enter and exit of a watched call on this thread; returns the error when this is
// the exit of the thread's outermost watched call and it returned a sticky error. Every later
// call returns the same error: only the process's first one is returned.
std::optional<StickyErrorCall> OnStickyErrorWatchedCall(CUpti_CallbackDomain domain,
                                                        const CUpti_CallbackData& data);

// Runs on the program's thread inside the first watched call that returned a sticky error,
// before the call returns to the program.
using StickyErrorHandler = std::function<void(const StickyErrorCall&)>;
// Once per process (a later handler is ignored); before then an error is not told.
void SetStickyErrorHandler(StickyErrorHandler handler);

// The callback handler (CallbackSlot::kStickyErrors): consumes the watched calls' callbacks,
// follows them with OnStickyErrorWatchedCall and tells its error to the handler.
CallbackHandler& StickyErrorCallbacks();

// Forgets that the process's first sticky error was returned (for tests).
void ForgetStickyErrorForTesting();

}  // namespace gpuscope::cupti
