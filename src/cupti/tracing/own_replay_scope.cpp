#include "cupti/tracing/own_replay_scope.h"

#include <cuda.h>

#include <string>

#include "cupti/common/driver_entry_points.h"
#include "cupti/tracing/activity.h"
#include "inject/log.h"
#include "inject/own_replay_calls.h"

namespace gpuscope::cupti {
namespace {

thread_local bool t_replaying = false;
thread_local std::uint32_t t_program_ids[2] = {0, 0};

bool ConsumeOwnReplayCall(CUpti_CallbackDomain domain, CUpti_CallbackId /*cbid*/,
                          const void* data) {
  const CUpti_CallbackData* api = ApiCallbackData(domain, data);
  if (api == nullptr || !ReplayingOnThisThread()) return false;
  if (api->callbackSite == CUPTI_API_ENTER && !IsReplayedProgramCall(api->correlationId)) {
    inject::NoteOwnReplayCall(api->correlationId);
  }
  return true;
}

constinit CallbackFunction g_own_replay_callbacks{&ConsumeOwnReplayCall};

}  // namespace

CallbackHandler& OwnReplayCallbacks() { return g_own_replay_callbacks; }

bool ReplayingOnThisThread() { return t_replaying; }

bool IsReplayedProgramCall(std::uint32_t correlation_id) {
  return correlation_id == t_program_ids[0] || correlation_id == t_program_ids[1];
}

OwnReplayScope::OwnReplayScope(std::uint32_t call_id, std::uint32_t record_id)
    : outer_(!t_replaying) {
  if (!outer_) return;
  t_replaying = true;
  t_program_ids[0] = call_id;
  t_program_ids[1] = record_id;
}

OwnReplayScope::~OwnReplayScope() {
  if (!outer_) return;
  t_replaying = false;
  t_program_ids[0] = t_program_ids[1] = 0;
}

TracingPause::TracingPause()
    : paused_(TracingKindsEnabled()), began_(std::chrono::steady_clock::now()) {
  if (paused_) DisableTracingKinds();
}

TracingPause::~TracingPause() {
  if (!paused_) return;
  Status resumed = EnableTracingKinds();
  if (!resumed.ok()) inject::LogError("tracing could not be resumed: " + resumed.message());
  inject::NoteTracingPaused(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                           began_)
          .count()));
}

Status SynchronizeContext() {
  StatusOr<const DriverEntryPoints*> driver = Driver();
  if (!driver.ok()) return driver.status();
  CUresult result = (*driver)->context_synchronize();
  if (result != CUDA_SUCCESS) {
    return Status::Error("the replayed launch failed (CUDA error " + std::to_string(result) + ")");
  }
  return Status();
}

}  // namespace gpuscope::cupti
