// Launching a kernel again exactly as a driver launch call is about to (same function, grid,
// block, shared memory, stream, arguments), from that call's enter callback: gpuscope's own
// replay of a profiled launch for its source counters. The arguments are the program's own
// pointers, valid until the call returns.
#pragma once

#include <cupti.h>

#include "util/status.h"

namespace gpuscope::cupti {

// Whether `cbid` (driver domain) is a launch call this can repeat.
bool CanReplayLaunch(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// Launches the call's kernel once more (asynchronously, on the call's stream).
Status ReplayLaunch(CUpti_CallbackId cbid, const void* params);

}  // namespace gpuscope::cupti
