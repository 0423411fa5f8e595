// Time gpuscope's profiler spent inside the program's launch calls. A profiled launch is
// replayed (gpuscope's own counter passes, CUPTI's kernel replay, the source passes) inside
// the launch call's callbacks, so CUPTI's API record of that call lasts as long as the replay:
// `cudaLaunchKernel` took 4.41 s, 96% of the API time, in a recorded 14-launch profile. That
// time is the profiler's, not the program's. The kernel profiler notes each replay interval
// here, keyed by the correlation ids of the launch calls around it (the runtime call and its
// driver call); the record router takes it out of those calls' records (their end moves back
// by the interval's length) and writes the interval once as an overhead record of its own
// (kGpuscopeReplayOverheadKind), so the API summary shows the program's time and the
// timeline shows the replay as profiler time.
//
// Process-wide and thread-safe: notes come from the program's threads, takes from the writer
// thread. Entries are few (one or two per profiled launch) and each is taken once.
#pragma once

#include <cstdint>
#include <optional>

#include "model/records.h"

namespace gpuscope::inject {

struct ProfilerInterval {
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  bool outermost = false;  // the call whose record also carries the overhead record
};

// `outer_correlation_id`: the outermost launch call's (the runtime call's, or the driver
// call's when the program called the driver); `call_correlation_id`: the call whose callback
// replayed (equal to the outer one, or its nested driver call). An empty interval is ignored.
void NoteProfilerTime(std::uint32_t outer_correlation_id, std::uint32_t call_correlation_id,
                      model::Timestamp start, model::Timestamp end);

// The interval noted for the call, removed (each call's record arrives once).
std::optional<ProfilerInterval> TakeProfilerTime(std::uint32_t correlation_id);

// The API record with the replay taken out: its end moves back by the interval's length when
// the interval lies inside it (else the record is returned unchanged).
model::ApiCallRecord WithoutProfilerTime(const model::ApiCallRecord& record,
                                         const ProfilerInterval& interval);

}  // namespace gpuscope::inject
