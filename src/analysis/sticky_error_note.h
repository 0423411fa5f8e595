// The sticky CUDA error a report's program met, in one line: which call returned it, what it
// means, when, and that nothing after it could run. It explains why a crashed run ended and
// why the kernel that faulted has no timestamps.
#pragma once

#include <string>

#include "model/records.h"
#include "store/sticky_error_calls.h"

namespace gpuscope::analysis {

// "cudaDeviceSynchronize returned cudaErrorIllegalAddress (a kernel accessed an illegal memory
// address) 212.45ms after tracing began, on thread 4242: a sticky error, the CUDA context was
// unusable from then on (3 calls failed with it)". `tracing_start` 0: the time is left out.
std::string StickyErrorNote(const store::StickyErrorCalls& calls, model::Timestamp tracing_start);

}  // namespace gpuscope::analysis
