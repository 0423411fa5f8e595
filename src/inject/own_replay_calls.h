// The CUDA calls gpuscope itself makes inside the program: to replay a profiled launch for its
// source counters (cupti/source_passes), the extra launches and synchronisations; to read a
// GPU's clock (cupti/gpu_clock), the clock kernel, its stream and pinned slot. Their activity
// records are not the program's work, so the record router leaves them out of the trace (and
// counts them: counters.own_replay_records), keyed by the calls' correlation ids.
//
// Process-wide and thread-safe: the callbacks that see the calls run on the program's thread,
// the router on the writer thread. Ids are few (a handful per profiled launch).
#pragma once

#include <cstdint>

namespace gpuscope::inject {

void NoteOwnReplayCall(std::uint32_t correlation_id);
bool IsOwnReplayCall(std::uint32_t correlation_id);

// The tracing kinds were off for `ns` while gpuscope replayed a launch (CUPTI's SASS patching
// counts nothing while they are on): work other threads did then is not in the trace. The
// total goes into counters.tracing_paused_ns.
void NoteTracingPaused(std::uint64_t ns);
std::uint64_t TracingPausedNs();

}  // namespace gpuscope::inject
