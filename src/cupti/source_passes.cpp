#include "cupti/source_passes.h"

#include <chrono>
#include <set>
#include <utility>

#include "cupti/activity.h"
#include "cupti/device_checkpoint.h"
#include "cupti/driver_entry_points.h"
#include "cupti/elapsed_time.h"
#include "cupti/launch_call.h"
#include "cupti/launch_replay.h"
#include "inject/log.h"
#include "inject/own_replay_calls.h"

namespace gpuscope::cupti {
namespace {

thread_local bool t_replaying = false;
thread_local std::uint32_t t_program_ids[2] = {0, 0};

// Sets the thread's replay flag, and the ids of the program's launch calls, for a scope.
class ReplayScope {
 public:
  ReplayScope(std::uint32_t call_id, std::uint32_t record_id) {
    t_replaying = true;
    t_program_ids[0] = call_id;
    t_program_ids[1] = record_id;
  }
  ~ReplayScope() {
    t_replaying = false;
    t_program_ids[0] = t_program_ids[1] = 0;
  }
  ReplayScope(const ReplayScope&) = delete;
  ReplayScope& operator=(const ReplayScope&) = delete;
};

// The tracing kinds off for the scope (SASS patching counts nothing while they are on), the
// time they were off counted so that readers can say what the trace may lack.
class TracingPause {
 public:
  TracingPause() : paused_(TracingKindsEnabled()), began_(std::chrono::steady_clock::now()) {
    if (paused_) DisableTracingKinds();
  }
  ~TracingPause() {
    if (!paused_) return;
    Status resumed = EnableTracingKinds();
    if (!resumed.ok()) inject::LogError("tracing could not be resumed: " + resumed.message());
    inject::NoteTracingPaused(static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                             began_)
            .count()));
  }
  TracingPause(const TracingPause&) = delete;
  TracingPause& operator=(const TracingPause&) = delete;

 private:
  bool paused_;
  std::chrono::steady_clock::time_point began_;
};

Status Synchronize() {
  StatusOr<const DriverEntryPoints*> driver = Driver();
  if (!driver.ok()) return driver.status();
  CUresult result = (*driver)->context_synchronize();
  if (result != CUDA_SUCCESS) {
    return Status::Error("the replayed launch failed (CUDA error " + std::to_string(result) + ")");
  }
  return Status();
}

}  // namespace

bool ReplayingOnThisThread() { return t_replaying; }

bool IsReplayedProgramCall(std::uint32_t correlation_id) {
  return correlation_id == t_program_ids[0] || correlation_id == t_program_ids[1];
}

void SourcePasses::Run(const LaunchCall& call, std::uint32_t device, const std::string& chip,
                       bool can_sample, std::uint32_t program_correlation_id,
                       inject::OwnedSourceCounters& out) {
  out.requested = true;
  try {
    ReplayScope scope(call.data().correlationId, program_correlation_id);
    Status status = RunPasses(call, device, chip, can_sample, out);
    if (!status.ok()) out.message = status.message();
    AttachCubins(out);
  } catch (const std::exception& error) {
    out.message = std::string("gpuscope failed internally in the source passes: ") + error.what();
  } catch (...) {
    out.message = "gpuscope failed internally in the source passes";
  }
}

Status SourcePasses::RunPasses(const LaunchCall& call, std::uint32_t device,
                               const std::string& chip, bool can_sample,
                               inject::OwnedSourceCounters& out) {
  const CUpti_CallbackData& data = call.data();
  if (!CanReplayLaunch(call.domain(), call.cbid())) {
    return Status::Error("source counters: this launch call cannot be replayed by gpuscope");
  }
  const SteadyClock::time_point began = SteadyClock::now();
  TracingPause pause;
  // The program's earlier work first: the checkpoint must hold memory as the launch finds it.
  GPUSCOPE_RETURN_IF_ERROR(Synchronize());
  StatusOr<std::unique_ptr<DeviceCheckpoint>> checkpoint = DeviceCheckpoint::Save(data.context);
  if (!checkpoint.ok()) return Status::Error("source counters: " + checkpoint.status().message());
  const auto launch_and_wait = [&]() -> Status {
    GPUSCOPE_RETURN_IF_ERROR(ReplayLaunch(call.cbid(), data.functionParams));
    return Synchronize();
  };
  const auto restore = [&]() -> Status {
    Status restored = (*checkpoint)->Restore();
    if (!restored.ok()) {
      inject::LogError("source counters: " + restored.message() +
                       "; the program's device memory may differ from an unprofiled run");
    }
    return restored;
  };
  Status sampled = Status::Error(
      "not sampled: CUPTI samples no PCs in a context once its range profiler is enabled, and "
      "that happened at the first measured launch; profile one launch per run (-c 1) for "
      "stall reasons");
  if (can_sample) {
    // Sampling first: it gets no samples after patching was enabled in the launch.
    PcSamplingPass sampler(data.context);
    sampled = sampler.Run(launch_and_wait, out);
    GPUSCOPE_RETURN_IF_ERROR(restore());
  }
  Status patched = sass_.Run(data.context, device, chip, launch_and_wait, out);
  GPUSCOPE_RETURN_IF_ERROR(restore());
  inject::LogDebug("source passes: " + Elapsed(began));
  if (!sampled.ok() && !patched.ok()) {
    return Status::Error("source counters: warp stall sampling: " + sampled.message() +
                         "; SASS patching: " + patched.message());
  }
  if (!sampled.ok()) return Status::Error("warp stall sampling: " + sampled.message());
  if (!patched.ok()) return Status::Error("source counters: SASS patching: " + patched.message());
  return Status();
}

void SourcePasses::ForgetContext(CUcontext context) {
  std::uint32_t device = 0;
  if (cuptiGetDeviceId(context, &device) != CUPTI_SUCCESS) return;
  sass_.Unconfigure(device);
}

void SourcePasses::AttachCubins(inject::OwnedSourceCounters& out) {
  std::set<std::uint64_t> crcs;
  for (const model::InstructionValue& value : out.values) crcs.insert(value.cubin_crc);
  for (std::uint64_t crc : crcs) {
    ModuleCubins::Image image = cubins_.TakeForReport(crc);
    if (image == nullptr) continue;  // given with an earlier kernel, or never loaded as ELF
    out.cubin_crcs.push_back(crc);
    out.cubin_images.push_back(*image);
  }
}

}  // namespace gpuscope::cupti
