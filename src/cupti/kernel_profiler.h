// `gpuscope profile` inside the traced process: each selected kernel launch is measured by
// CUPTI's Range Profiler with auto range and kernel replay (CUPTI saves device memory,
// replays the kernel once per pass and restores memory between passes; notes/cupti.md 3.3).
//
// Flow per selected launch, on the program's thread, inside the launch call's callbacks:
//   enter: KernelSelector decides (in the nested driver call when the runtime call has no
//          context yet or hides a stream the filter needs) -> (first time per context)
//          initialise the profiler, check the device and the counters, take the config image
//          the CLI built (or build it) -> (first measurement) enable the range profiler and
//          size the counter data for one range -> reset the image, SetConfig(auto range,
//          kernel replay, or application replay: one pass per run), Start
//   exit:  Stop, DecodeData -> copy the one-range image -> Collector (writer thread); the
//          range profiler is disabled once no selected launch is pending or can come
//          (CUPTI must never enable it twice on a context)
// Launches that are not selected pass through untouched (no serialisation, no replay); the
// only cost is the name lookup and the selector, and none at all once --launch-count is
// reached. Measurements are serialised by one lock: CUPTI replays one kernel at a time.
//
// Failures never reach the program: a context whose counters cannot be read (permissions,
// vGPU, MIG, another tool holding them) is named once with the cause and the fix, and its
// selected launches are recorded as not measured with the reason; the program runs on and
// is traced.
#pragma once

#include <cupti.h>

#include <functional>

#include "inject/config.h"
#include "inject/profiled_kernel.h"
#include "util/status.h"

namespace gpuscope::inject::cupti {

struct KernelProfilerHooks {
  std::function<void(OwnedProfiledKernel)> submit;  // to the collector
  bool progress = true;  // the ncu-like "Profiling ..." line per measured kernel
};

// cuptiProfilerInitialize, and the launch callbacks of `subscriber`. Called once.
Status StartKernelProfiler(CUpti_SubscriberHandle subscriber, const ProfileConfig& config,
                           KernelProfilerHooks hooks);

// A context is being destroyed: its range profiler goes with it (a later context may get the
// same address).
void ForgetProfiledContext(CUcontext context);

// Whether (domain, cbid) is one of the launch calls the profiler enabled.
bool IsProfiledLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);

// From the subscriber's callback; never throws.
void OnLaunchCallback(CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                      const CUpti_CallbackData& data);

}  // namespace gpuscope::inject::cupti
