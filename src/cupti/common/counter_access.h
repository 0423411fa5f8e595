// Why the kernel profiler cannot measure: CUPTI's errors turned into the outcome and the
// one-line message recorded with a launch. "Counters unavailable" messages (permissions,
// vGPU, MIG, another tool holding them) carry the cause and the fix.
#pragma once

#include <cupti.h>

#include <cstdint>
#include <string>

#include "model/profile_records.h"

namespace gpuscope::cupti {

// Why launches are not measured; an empty message: nothing is wrong.
struct ProfileFailure {
  std::string message;
  model::ProfileOutcome outcome = model::ProfileOutcome::kReplayFailed;
  bool empty() const { return message.empty(); }
};

// Whether `result` says the counters cannot be read at all (not a failed step).
bool IsUnavailable(CUptiResult result);

// "cannot read the GPU's performance counters (<what>: <result>)" with the cause and the fix.
std::string UnavailableMessage(CUptiResult result, const std::string& what);

// A failed CUPTI call `what`: counters unavailable, or "<what> failed: <result>".
ProfileFailure FailureOf(CUptiResult result, const std::string& what);

// Why the device cannot be profiled at all (with the Range Profiler, or with PM sampling), or
// empty.
enum class ProfilerApi { kRangeProfiling, kPmSampling };
std::string UnsupportedDeviceReason(std::uint32_t device_id,
                                    ProfilerApi api = ProfilerApi::kRangeProfiling);

}  // namespace gpuscope::cupti
