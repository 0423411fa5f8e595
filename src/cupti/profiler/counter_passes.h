// gpuscope's own replay of a profiled launch for its counters (`profile --replay-mode kernel
// --cache-control all`, the defaults, or any kernel replay with --replay-no-restore; issue 12),
// run from the launch's driver enter callback, before the program's launch goes on:
//   the program's earlier work finishes; device memory is saved (CUPTI's checkpoint); the
//   range profiler is configured for auto range and user replay; then per pass: memory put
//   back (from the second pass on), L2 flushed (l2_flush.h), Start,
//   the kernel launched again with the call's own arguments, Stop; until CUPTI has every pass;
//   memory put back once more; the counter data decoded. With --replay-no-restore nothing is
//   saved or put back (the passes still wait for each other), and with --cache-control none
//   nothing is flushed.
// The program's own launch then runs unmeasured and traced, so it keeps its timestamps on the
// timeline, and its results are those of an unprofiled run.
//
// Why not CUPTI's kernel replay: it restores memory between passes through L2 and offers no
// hook between passes, so caches cannot be flushed and the restore's dirty lines are written
// back during the measured pass (DRAM writes +46% to +142% against ncu; bench/RESULTS.md
// 2026-11-28); and the launch it replays loses its timestamps. Why auto range: with a user
// range the range's time includes the launch latency (gpu__time_duration 2-4x the kernel's);
// an auto range around the one launch times the kernel alone (within 3.5% of ncu).
//
// Tracing is paused during the passes and the replayed launches are marked as gpuscope's
// (own_replay_scope.h), so none of them reaches the trace.
#pragma once

#include <cuda.h>
#include <cupti.h>

#include <cstdint>
#include <string>

#include "cupti/profiler/context_range_profiler.h"
#include "cupti/profiler/l2_flush.h"

namespace gpuscope::cupti {

class LaunchCall;

// Whether this launch call can be measured by the counter passes (a driver launch call with
// its parameters; anything else goes to CUPTI's kernel replay).
bool CounterPassesCanMeasure(const LaunchCall& call);

// Where the time of one measurement went (ns), for the debug log and the benchmark.
struct CounterPassTimes {
  std::uint64_t save = 0;
  std::uint64_t restore = 0;
  std::uint64_t flush = 0;
  std::uint64_t passes = 0;
  std::uint32_t pass_count = 0;
};

struct CounterPassesOutcome {
  CUptiResult result = CUPTI_SUCCESS;  // the first CUPTI call that failed, named in `what`
  std::string what;
  std::string problem;  // non-empty: the replay itself failed (memory, a replayed launch)
  StopResult stopped;
  CounterPassTimes times;
};

class CounterPasses {
 public:
  // `flush_caches`: flush L2 before each pass (--cache-control all). `restore_memory`: save
  // device memory before the passes and put it back between and after them; false when the
  // user said the kernel leaves its inputs unchanged (--replay-no-restore), which saves the
  // checkpoint's copies of all device memory.
  CounterPasses(bool flush_caches, bool restore_memory)
      : flush_caches_(flush_caches), restore_memory_(restore_memory) {}

  // Measures the launch of `call` (its enter callback, context current). May throw only
  // std::bad_alloc-like failures; the caller catches.
  CounterPassesOutcome Run(const LaunchCall& call, ContextRangeProfiler& context,
                           std::uint32_t program_correlation_id);

  void ForgetContext(CUcontext context) { flush_.ForgetContext(context); }

 private:
  void FlushBeforePass(CUcontext context, CounterPassTimes& times);

  const bool flush_caches_;
  const bool restore_memory_;
  L2Flush flush_;
  bool said_flush_failed_ = false;
};

}  // namespace gpuscope::cupti
