// `--api-capture callback`: the CUDA API calls the program made, timed by gpuscope in
// CUPTI's callbacks instead of recorded by CUPTI's RUNTIME and DRIVER activity kinds.
//
// What is recorded: every runtime call, and every driver call made outside a runtime call
// (a per-thread nesting depth: the driver calls the runtime makes inside its own calls are
// not the program's, and nvprof's summary counts only the program's). The hot no-op calls
// (hot_api_calls.h) are counted per thread and function (count, total, min, max) instead of
// one row each. Kernels, copies and memsets still come from the activity kinds and join the
// calls by correlation id (CUpti_CallbackData carries the same id as the activity records).
//
// The per-call path runs on the program's threads inside every CUDA call: a thread-local
// buffer (allocated once per thread, reused after the thread ends), no lock, no allocation,
// no exception. A buffer that fills is handed to the collector by its own thread (like a
// CUPTI buffer); the flusher drains every thread's buffer at each periodic flush. Each
// thread's buffer has a mutex taken only by those two hand-offs.
//
// The thread that starts the capture is inside cuInit, and often inside the runtime call
// that initialised CUDA (cudaMalloc, cudaFree(0)), whose enter callback came before the
// capture began: the driver calls the runtime makes after that are nested, but the depth
// cannot know it yet. So that thread's first calls are held: an unmatched runtime exit
// (the outer call returning) drops them and records that call (from the capture's start,
// its real start being unknown); a runtime call that begins first keeps them (a driver
// program, or driver calls before its first runtime call). Other threads that were inside a
// CUDA call when the capture began lose that one call (its exit is unmatched).
//
// Timestamps are CLOCK_REALTIME in ns, CUPTI's default clock (notes/cupti.md 2.4).
#pragma once

#include <cupti.h>

#include <cstdint>

#include "cupti/common/callback_table.h"
#include "util/status.h"

namespace gpuscope::cupti {

// On the thread inside cuInit (StartTracing), before the domains' callbacks are enabled.
// `recording`: record now (false: from cudaProfilerStart on).
void BeginApiCallbackCapture(bool recording);
bool ApiCallbackCaptureStarted();
// cudaProfilerStart/Stop.
void SetApiCallbackRecording(bool on);

// From the callback, for CUPTI_CB_DOMAIN_RUNTIME_API and _DRIVER_API; never throws.
void OnApiCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                   const CUpti_CallbackData& data);
// The callback handler (CallbackSlot::kApiCapture): every runtime and driver callback to
// OnApiCallback, none consumed.
CallbackHandler& ApiCaptureCallbacks();

// Hands every thread's captured calls to the buffer collector (activity.h). `final`: also
// the calls still held on the starting thread (the process ends). Any thread but the
// program's inside a callback.
void DrainCapturedApiCalls(bool final);

// Records lost because no pool buffer could be had (also counted in the collector).
std::uint64_t CapturedApiCallsLost();

}  // namespace gpuscope::cupti
