#include "cupti/source_passes.h"

#include <set>
#include <utility>

#include "cupti/device_checkpoint.h"
#include "cupti/driver_entry_points.h"
#include "cupti/launch_call.h"
#include "cupti/launch_replay.h"
#include "inject/log.h"

namespace gpuscope::cupti {
namespace {

thread_local bool t_replaying = false;

// Sets the thread's replay flag for a scope.
class ReplayScope {
 public:
  ReplayScope() { t_replaying = true; }
  ~ReplayScope() { t_replaying = false; }
  ReplayScope(const ReplayScope&) = delete;
  ReplayScope& operator=(const ReplayScope&) = delete;
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

void SourcePasses::Run(const LaunchCall& call, std::uint32_t device, const std::string& chip,
                       inject::OwnedSourceCounters& out) {
  out.requested = true;
  try {
    ReplayScope scope;
    Status status = RunPasses(call, device, chip, out);
    if (!status.ok()) out.message = status.message();
    AttachCubins(out);
  } catch (const std::exception& error) {
    out.message = std::string("gpuscope failed internally in the source passes: ") + error.what();
  } catch (...) {
    out.message = "gpuscope failed internally in the source passes";
  }
}

Status SourcePasses::RunPasses(const LaunchCall& call, std::uint32_t device,
                               const std::string& chip, inject::OwnedSourceCounters& out) {
  const CUpti_CallbackData& data = call.data();
  if (!CanReplayLaunch(call.domain(), call.cbid())) {
    return Status::Error("source counters: this launch call cannot be replayed by gpuscope");
  }
  // The program's earlier work first: the checkpoint must hold memory as the launch finds it.
  GPUSCOPE_RETURN_IF_ERROR(Synchronize());
  StatusOr<std::unique_ptr<DeviceCheckpoint>> checkpoint = DeviceCheckpoint::Save(data.context);
  if (!checkpoint.ok()) return Status::Error("source counters: " + checkpoint.status().message());
  const auto launch_and_wait = [&]() -> Status {
    GPUSCOPE_RETURN_IF_ERROR(ReplayLaunch(call.cbid(), data.functionParams));
    return Synchronize();
  };
  std::unique_ptr<PcSamplingPass>& sampler = sampling_[data.context];
  if (sampler == nullptr) sampler = std::make_unique<PcSamplingPass>(data.context);
  // Sampling first: see pc_sampling_pass.h for why the order matters.
  Status sampled = sampler->Run(launch_and_wait, out);
  Status restored = (*checkpoint)->Restore();
  if (!restored.ok()) {
    inject::LogError("source counters: " + restored.message() +
                     "; the program's device memory may differ from an unprofiled run");
    return restored;
  }
  Status patched = sass_.Run(data.context, device, chip, launch_and_wait, out);
  restored = (*checkpoint)->Restore();
  if (!restored.ok()) {
    inject::LogError("source counters: " + restored.message() +
                     "; the program's device memory may differ from an unprofiled run");
    return restored;
  }
  if (!sampled.ok() && !patched.ok()) {
    return Status::Error("source counters: PC sampling: " + sampled.message() +
                         "; SASS patching: " + patched.message());
  }
  if (!sampled.ok()) return Status::Error("source counters: PC sampling: " + sampled.message());
  if (!patched.ok()) return Status::Error("source counters: SASS patching: " + patched.message());
  return Status();
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

void SourcePasses::ForgetContext(CUcontext context) {
  auto found = sampling_.find(context);
  if (found == sampling_.end()) return;
  found->second->Disable();
  sampling_.erase(found);
}

}  // namespace gpuscope::cupti
