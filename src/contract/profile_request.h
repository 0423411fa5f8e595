// What `gpuscope profile` asks the injection to measure: the metrics, which launches (or
// ranges), how they are replayed, and the config image the CLI already built. The CLI fills it
// from its options and writes it into the program's environment (ToEnvironment); the
// injection reads it back there (FromEnvironment). Each value has one spelling, here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "contract/environment_values.h"
#include "model/profile_records.h"
#include "util/kernel_filter.h"
#include "util/nvtx_range_filter.h"

namespace gpuscope::contract {

// --replay-mode and GPUSCOPE_REPLAY_MODE.
inline constexpr Spelling<model::ReplayMode> kReplayModeSpellings[] = {
    {"kernel", model::ReplayMode::kKernel},
    {"application", model::ReplayMode::kApplication},
    {"app-range", model::ReplayMode::kAppRange},
};

inline std::string_view ReplayModeName(model::ReplayMode mode) {
  return SpellingOf(kReplayModeSpellings, mode);
}
// Application and app-range replay run the program once per pass; kernel replay once.
inline bool RunsPerPass(model::ReplayMode mode) {
  return mode == model::ReplayMode::kApplication || mode == model::ReplayMode::kAppRange;
}

// Kernel replay, before each of gpuscope's own passes: flush the L2 cache (ncu's default), or
// leave the caches as the last pass left them (--cache-control, GPUSCOPE_CACHE_CONTROL).
enum class CacheControl { kAll, kNone };
inline constexpr Spelling<CacheControl> kCacheControlSpellings[] = {
    {"all", CacheControl::kAll},
    {"none", CacheControl::kNone},
};

struct ProfileRequest {
  // GPUSCOPE_PROFILE_METRICS, comma separated, checked on the chip by the CLI. Empty: nothing
  // is profiled (tracing only), and the rest of the request means nothing.
  std::vector<std::string> metrics;
  // -k, --kernel-name-base, -s, -c, --kernel-id, --devices (GPUSCOPE_KERNEL_NAME, ...).
  KernelFilterSpec filter;
  model::ReplayMode replay_mode = model::ReplayMode::kKernel;  // GPUSCOPE_REPLAY_MODE
  // GPUSCOPE_NVTX_INCLUDE, one spec per line: app-range measures these NVTX ranges (empty:
  // cudaProfilerStart/Stop's).
  NvtxRangeFilter nvtx_include;
  CacheControl cache_control = CacheControl::kAll;  // GPUSCOPE_CACHE_CONTROL
  // Kernel replay saves and restores device memory around its passes unless the user said the
  // kernel leaves its inputs unchanged (--replay-no-restore: GPUSCOPE_REPLAY_NO_RESTORE=1).
  bool restore_memory = true;
  // GPUSCOPE_PROFILE_SOURCE: own replay passes for per-instruction data before the counters.
  bool source_counters = false;
  // Application and app-range replay: this run is pass `app_pass` of `app_passes`, the counter
  // data lives in `app_dir` between runs (GPUSCOPE_REPLAY_PASS, _PASSES, _DIR).
  std::uint32_t app_pass = 0;
  std::uint32_t app_passes = 0;
  std::string app_dir;
  // The config image the CLI built for `config_image_chip`, in a file, and the passes it needs
  // (GPUSCOPE_PROFILE_CONFIG_FILE, _CHIP, _PASSES); empty file: the injection builds it.
  std::string config_image_file;
  std::string config_image_chip;
  std::uint32_t config_image_passes = 0;

  bool enabled() const { return !metrics.empty(); }

  // Every variable of kProfileVariables, in that order, always: empty when not asked for, and
  // all empty for a request that profiles nothing, so that a run inside a profiled program
  // never inherits a profiling request.
  VariableValues ToEnvironment() const;

  // The request the launcher wrote, or (problems) one line for each variable that holds a value
  // it would not write, naming the variable; then the request is empty (nothing is profiled:
  // measuring the wrong kernels would be worse than measuring none). Without metrics nothing
  // else is read. A config image that is not whole (a variable missing, passes not a number)
  // is left out without a problem: it only costs time.
  static RequestReading<ProfileRequest> FromEnvironment(const EnvironmentLookup& getenv);
};

}  // namespace gpuscope::contract
