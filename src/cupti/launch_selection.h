// Which kernel launches `gpuscope profile` measures, as the launch callbacks apply it: the
// filters of util/kernel_filter.h (-k/--kernel-name or regex:, --kernel-name-base, -s/-c
// counted over matching launches only, --kernel-id, --devices) decided launch by launch,
// plus the count of selected launches not yet measured. That count is what keeps the range
// profiler enabled: another thread may be waiting for the measurement lock with a selected
// launch, so the profiler is disabled only when none is pending and none can come.
//
// CUPTI-free and thread-safe (launches come from any thread of the program); tested without
// a GPU in tests/cupti.
#pragma once

#include <mutex>

#include "util/kernel_filter.h"

namespace gpuscope::cupti {

class LaunchSelection {
 public:
  explicit LaunchSelection(KernelFilterSpec spec);

  // No launch can be selected any more (--launch-count reached): the launch callbacks can
  // skip the work of naming kernels.
  bool Exhausted() const { return selector_.Exhausted(); }

  // --kernel-id names a stream: a launch must not be decided before its stream is known.
  bool NeedsStream() const { return needs_stream_; }

  // Decides one launch (numbering its invocation); a selected one is pending until
  // FinishSelected().
  LaunchDecision Decide(const LaunchCandidate& launch);

  // A selected launch is done with (measured or recorded as not measured). True when it was
  // the last one pending and no launch can be selected any more: the range profiler can go.
  bool FinishSelected();

  int pending() const;

 private:
  const bool needs_stream_;
  KernelSelector selector_;
  // Makes a decision and its pending count one step: a launch selected on one thread while
  // another finishes the last pending one must not find the profiler disabled.
  mutable std::mutex mutex_;
  int pending_ = 0;
};

}  // namespace gpuscope::cupti
