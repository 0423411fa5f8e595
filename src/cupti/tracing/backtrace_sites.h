// `--backtrace`: which CUDA calls record the host call stack that made them, and the enter
// callback that takes it (inject/call_stacks.h). The calls: kernel launches of every kind
// (cudaLaunchKernel(ExC), cooperative, cuLaunchKernel(Ex), cuLaunchGrid..., graph launches),
// copies, memsets and the calls that wait for the GPU (device, context, stream and event
// synchronisation). Chosen by bare name (IsBacktraceSite) over all of CUPTI's callback ids, so
// that a new version of a call (a `_v2`, `_ptsz` variant) is included without a list to keep.
//
// A driver call made inside a runtime call that took a stack takes none: the kernel, copy or
// memset record carries the runtime call's correlation id, and the outer call is the one the
// program made.
#pragma once

#include <cupti.h>

#include <string_view>

#include "cupti/common/callback_table.h"
#include "inject/call_stacks.h"
#include "util/status.h"

namespace gpuscope::cupti {

// Whether the call named `name` (without CUPTI's version suffixes) records its stack.
bool IsBacktraceSite(std::string_view name);

// Enables the enter and exit callbacks of every such call and sends their stacks to `stacks`
// (which must live as long as the process).
Status EnableBacktraceSites(CUpti_SubscriberHandle subscriber, inject::CallStacks& stacks);

// The callback handler (CallbackSlot::kBacktraces): takes the stack of a chosen call at its
// enter site, into the stacks EnableBacktraceSites was given (none before). Consumes nothing;
// cheap for calls not chosen.
CallbackHandler& BacktraceSiteCallbacks();

}  // namespace gpuscope::cupti
