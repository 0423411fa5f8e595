// Which kernel launches `gpuscope profile` measures, as the launch callbacks apply it: the
// filters of util/kernel_filter.h (-k/--kernel-name or regex:, --kernel-name-base, -s/-c
// counted over matching launches only, --kernel-id, --devices) decided launch by launch,
// plus the count of selected launches not yet measured. That count is what keeps the range
// profiler enabled: another thread may be waiting for the measurement lock with a selected
// launch, so the profiler is disabled only when none is pending and none can come.
//
// It also refuses what must not be replayed: an NCCL collective (util/nccl_kernels.h) in kernel
// replay. CUPTI replays a launch by running it again, alone, once per pass; a collective run
// by one rank waits for the other ranks, which are not replaying it, so the program would
// hang (Nsight Compute hangs there). Such a launch is selected (it counts for -s/-c) but runs
// unmeasured and is recorded as not replayable, and the reason is said once per process.
//
// CUPTI-free and thread-safe (launches come from any thread of the program); tested without
// a GPU in tests/cupti/profiler.
#pragma once

#include <mutex>
#include <string_view>

#include "model/profile_records.h"
#include "util/kernel_filter.h"

namespace gpuscope::cupti {

// The decision on one launch, and when it is selected but must not be measured, why.
struct SelectedLaunch : LaunchDecision {
  // Non-empty only for a selected launch that must run unmeasured: the message recorded
  // with it (ProfileOutcome::kNotReplayable).
  std::string_view refusal;
  // The first refusal of the process: say it on stderr (later ones are only recorded).
  bool say_refusal = false;
};

// Why a launch of `mangled_name` cannot be measured in `mode`, or empty when it can.
std::string_view ReplayRefusal(std::string_view mangled_name, model::ReplayMode mode);

class LaunchSelection {
 public:
  explicit LaunchSelection(KernelFilterSpec spec,
                           model::ReplayMode mode = model::ReplayMode::kKernel);

  // No launch can be selected any more (--launch-count reached): the launch callbacks can
  // skip the work of naming kernels.
  bool Exhausted() const { return selector_.Exhausted(); }

  // --kernel-id names a stream: a launch must not be decided before its stream is known.
  bool NeedsStream() const { return needs_stream_; }

  // Decides one launch (numbering its invocation); a selected one is pending until
  // FinishSelected(), refused or not.
  SelectedLaunch Decide(const LaunchCandidate& launch);

  // A selected launch is done with (measured or recorded as not measured). True when it was
  // the last one pending and no launch can be selected any more: the range profiler can go.
  bool FinishSelected();

  int pending() const;

 private:
  const bool needs_stream_;
  const model::ReplayMode mode_;
  bool refused_before_ = false;
  KernelSelector selector_;
  // Makes a decision and its pending count one step: a launch selected on one thread while
  // another finishes the last pending one must not find the profiler disabled.
  mutable std::mutex mutex_;
  int pending_ = 0;
};

}  // namespace gpuscope::cupti
