#include "cupti/profiler/source_passes.h"

#include <set>
#include <utility>

#include "cupti/common/elapsed_time.h"
#include "cupti/profiler/device_checkpoint.h"
#include "cupti/profiler/launch_call.h"
#include "cupti/profiler/launch_replay.h"
#include "cupti/tracing/own_replay_scope.h"
#include "inject/log.h"

namespace gpuscope::cupti {

void SourcePasses::Run(const LaunchCall& call, std::uint32_t device, const std::string& chip,
                       bool can_sample, std::uint32_t program_correlation_id,
                       inject::OwnedSourceCounters& out) {
  out.requested = true;
  try {
    OwnReplayScope scope(call.data().correlationId, program_correlation_id);
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
  GPUSCOPE_RETURN_IF_ERROR(SynchronizeContext());
  StatusOr<std::unique_ptr<DeviceCheckpoint>> checkpoint = DeviceCheckpoint::Save(data.context);
  if (!checkpoint.ok()) return Status::Error("source counters: " + checkpoint.status().message());
  const auto launch_and_wait = [&]() -> Status {
    GPUSCOPE_RETURN_IF_ERROR(ReplayLaunch(call.cbid(), data.functionParams));
    return SynchronizeContext();
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
