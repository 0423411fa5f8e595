// The callbacks of the stream-capture calls, reported to inject::ProcessCaptureGate() so that
// gpuscope's own GPU work (gpu_clock.h) never runs while a capture may be under way:
// cudaStreamBeginCapture, cudaStreamBeginCaptureToGraph, cudaStreamEndCapture (and their
// _ptsz forms), cuStreamBeginCapture (v1, v2), cuStreamBeginCaptureToGraph, cuStreamEndCapture
// (and _ptsz). The runtime's call and the driver's inside it are both reported; the gate
// counts a stream once. They cost nothing the program would notice: captures are rare.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <optional>

#include "cupti/common/callback_table.h"
#include "util/status.h"

namespace gpuscope::cupti {

// What a capture callback means for the gate.
enum class CaptureCall { kBegin, kEnd };
std::optional<CaptureCall> CaptureCallOf(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

Status WatchStreamCaptures(CUpti_SubscriberHandle subscriber);

// A callback of a capture call (CaptureCallOf has a value): begin entered, begin returned
// (started when the call succeeded), end returned.
void OnStreamCaptureCallback(CaptureCall call, const CUpti_CallbackData& data);

// The callback handler (CallbackSlot::kStreamCapture): consumes the capture calls' callbacks
// and tells each to OnStreamCaptureCallback.
CallbackHandler& StreamCaptureCallbacks();

}  // namespace gpuscope::cupti
