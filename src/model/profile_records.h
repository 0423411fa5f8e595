// Records of `gpuscope profile`: one kernel launch measured by replay. Neutral like
// records.h: the counter data is CUPTI's image as opaque bytes, evaluated later (also on a
// machine with no GPU) by the host side of cupti.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "model/records.h"

namespace gpuscope::model {

// Stored in reports: never renumber, only append. kAppRange: the result is a range of the
// program (cudaProfilerStart/Stop or an NVTX range: all its work measured as one result,
// the program run once per pass), not one launch.
enum class ReplayMode : std::uint8_t { kKernel = 1, kApplication = 2, kAppRange = 3 };

inline bool IsRangeResult(ReplayMode mode) { return mode == ReplayMode::kAppRange; }

// How measuring one selected launch ended. Stored in reports: never renumber.
enum class ProfileOutcome : std::uint8_t {
  kMeasured = 0,             // counter data holds the launch's one range
  kReplayFailed = 1,         // CUPTI refused or failed a step; `message` says which and why
  kRangeDropped = 2,         // the replay ran but CUPTI kept no range for it
  kCountersUnavailable = 3,  // no access to the counters (permissions, MIG, vGPU, busy)
  kNotReplayable = 4,        // the kernel cannot be replayed alone (message names why)
};

// One value of one SASS instruction of a profiled launch (`profile --section SourceCounters`):
// a SASS metric counted by CUPTI's SASS patching (`smsp__sass_inst_executed`, ...), or the
// warp samples of one stall reason from CUPTI's PC sampling (`smsp__pcsamp_warps_issue_stalled_*`).
struct InstructionValue {
  std::uint64_t cubin_crc = 0;     // CUPTI's CRC of the cubin the instruction is in
  std::string_view function_name;  // mangled name of the function the offset is in
  std::uint64_t pc_offset = 0;     // bytes from the function's first instruction
  std::string_view metric;         // the SASS metric or stall-reason counter
  std::uint64_t value = 0;
};

// A cubin (ELF) as the driver loaded it, kept so that SASS and lines can be read back with no
// GPU. Keyed by the CRC the instruction values carry.
struct CubinImage {
  std::uint64_t crc = 0;
  std::span<const std::uint8_t> image;
};

// How the source-level passes of one launch went (own replay: SASS patching and PC sampling).
struct SourceCollection {
  bool requested = false;         // the profile asked for source counters
  std::string_view message;       // empty: everything asked for was collected; else why not
  std::uint64_t total_samples = 0;    // PC sampling: samples taken
  std::uint64_t dropped_samples = 0;  // PC sampling: samples the hardware buffer lost
  std::uint32_t sampling_period = 0;  // PC sampling: log2 of the cycles between samples
};

// One result of `gpuscope profile`: a kernel launch, or (IsRangeResult(replay_mode)) a range
// of the program, which has no launch: correlation_id 0, mangled_name the range's name,
// invocation the n-th range (from 0) of the process, range_kernels the launches inside it.
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
  // Source counters (empty unless requested and collected). Cubins already given with an
  // earlier kernel of the process are not repeated.
  SourceCollection source;
  std::span<const InstructionValue> instruction_values;
  std::span<const CubinImage> cubins;
  std::uint32_t range_kernels = 0;  // a range: the kernel launches it held (last run)
};

}  // namespace gpuscope::model
