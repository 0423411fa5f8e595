// Records of `gpuscope profile`: one kernel launch measured by replay. Neutral like
// records.h: the counter data is CUPTI's image as opaque bytes, evaluated later (also on a
// machine with no GPU) by the host side of cupti.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "model/records.h"

namespace gpuscope::model {

// Stored in reports: never renumber, only append.
enum class ReplayMode : std::uint8_t { kKernel = 1, kApplication = 2 };

// How measuring one selected launch ended. Stored in reports: never renumber.
enum class ProfileOutcome : std::uint8_t {
  kMeasured = 0,             // counter data holds the launch's one range
  kReplayFailed = 1,         // CUPTI refused or failed a step; `message` says which and why
  kRangeDropped = 2,         // the replay ran but CUPTI kept no range for it
  kCountersUnavailable = 3,  // no access to the counters (permissions, MIG, vGPU, busy)
  kNotReplayable = 4,        // the kernel cannot be replayed alone (message names why)
};

struct ProfiledKernelRecord {
  std::uint32_t correlation_id = 0;  // of the launch call; equals the kernel record's
  std::uint32_t device_id = 0;
  std::uint32_t context_id = 0;
  std::uint32_t stream_id = 0;
  // The n-th launch (from 0) of this kernel name in the process, selected or not.
  std::uint32_t invocation = 0;
  // The n-th kernel profiled in this process, from 0 (ncu's "ID").
  std::uint32_t profile_index = 0;
  Timestamp start = 0;  // host side, around the launch and its replay passes
  Timestamp end = 0;
  std::string_view mangled_name;
  std::string_view chip;  // "GH100": all the host API needs to evaluate the counter data
  std::uint32_t passes = 0;
  ReplayMode replay_mode = ReplayMode::kKernel;
  ProfileOutcome outcome = ProfileOutcome::kMeasured;
  std::string_view message;                    // empty when measured
  std::span<const std::uint8_t> counter_data;  // empty unless measured
};

}  // namespace gpuscope::model
