#include "cupti/profiler/counter_passes.h"

#include <chrono>
#include <memory>
#include <utility>

#include "cupti/profiler/device_checkpoint.h"
#include "cupti/profiler/launch_call.h"
#include "cupti/profiler/launch_replay.h"
#include "cupti/tracing/own_replay_scope.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

using Clock = std::chrono::steady_clock;

std::uint64_t NsSince(Clock::time_point began) {
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - began).count());
}

std::string Ms(std::uint64_t ns) { return std::to_string(ns / 1000 / 1000.0) + " ms"; }

}  // namespace

bool CounterPassesCanMeasure(const LaunchCall& call) {
  return CanReplayLaunch(call.domain(), call.cbid()) && call.data().functionParams != nullptr;
}

void CounterPasses::FlushBeforePass(CUcontext context, CounterPassTimes& times) {
  if (!flush_caches_) return;
  const Clock::time_point began = Clock::now();
  Status flushed = flush_.Run(context);
  times.flush += NsSince(began);
  if (flushed.ok() || said_flush_failed_) return;
  said_flush_failed_ = true;
  inject::LogError(flushed.message() +
                   "; kernels are measured without flushing L2 between passes (as "
                   "--cache-control none)");
}

CounterPassesOutcome CounterPasses::Run(const LaunchCall& call, ContextRangeProfiler& context,
                                        std::uint32_t program_correlation_id) {
  CounterPassesOutcome out;
  const CUpti_CallbackData& data = call.data();
  OwnReplayScope scope(data.correlationId, program_correlation_id);
  TracingPause pause;
  // The program's earlier work first: the checkpoint must hold memory as the launch finds it.
  if (Status synced = SynchronizeContext(); !synced.ok()) {
    out.problem = "the program's work before the launch failed: " + synced.message();
    return out;
  }
  Clock::time_point began = Clock::now();
  std::unique_ptr<DeviceCheckpoint> checkpoint;
  if (restore_memory_) {
    StatusOr<std::unique_ptr<DeviceCheckpoint>> saved = DeviceCheckpoint::Save(data.context);
    if (!saved.ok()) {
      out.problem = saved.status().message();
      return out;
    }
    checkpoint = std::move(saved.value());
  }
  out.times.save = NsSince(began);
  const auto restore = [&]() -> bool {
    if (checkpoint == nullptr) return true;  // --replay-no-restore: the user's promise
    const Clock::time_point started = Clock::now();
    Status restored = checkpoint->Restore();
    // The restore's copies must land before the flush and the pass: one still in flight
    // writes during the measured launch (seen on the H200: 131 KB of DRAM writes ncu has not).
    if (restored.ok()) restored = SynchronizeContext();
    out.times.restore += NsSince(started);
    if (!restored.ok()) {
      out.problem = restored.message() + "; the program's device memory may differ from an "
                                         "unprofiled run";
    }
    return restored.ok();
  };
  if ((out.result = context.BeginOwnReplay(out.what)) != CUPTI_SUCCESS) return out;
  const auto launch_and_wait = [&]() -> Status {
    GPUSCOPE_RETURN_IF_ERROR(ReplayLaunch(call.cbid(), data.functionParams));
    return SynchronizeContext();
  };
  // CUPTI says when it has every pass; a bound keeps a confused profiler from looping.
  const std::uint32_t most = context.passes() + 2;
  for (;;) {
    if (out.times.pass_count > 0 && !restore()) return out;
    FlushBeforePass(data.context, out.times);
    const Clock::time_point pass_began = Clock::now();
    bool all_submitted = false;
    Status launched;
    out.result = context.RunPass(launch_and_wait, out.what, all_submitted, launched);
    out.times.passes += NsSince(pass_began);
    ++out.times.pass_count;
    if (out.result != CUPTI_SUCCESS) {
      restore();
      return out;
    }
    if (!launched.ok()) {
      out.problem = launched.message();
      restore();
      return out;
    }
    if (all_submitted) break;
    if (out.times.pass_count >= most) {
      out.problem = "CUPTI asked for more than the " + std::to_string(context.passes()) +
                    " passes its configuration needs";
      restore();
      return out;
    }
  }
  // The program's own launch comes next: it must find memory as it left it.
  if (!restore()) return out;
  out.result = context.FinishOwnReplay(out.what, out.stopped);
  inject::LogDebug("counter passes: " + std::to_string(out.times.pass_count) + " passes " +
                   Ms(out.times.passes) + ", save " + Ms(out.times.save) + ", restore " +
                   Ms(out.times.restore) + ", flush " + Ms(out.times.flush));
  return out;
}

}  // namespace gpuscope::cupti
