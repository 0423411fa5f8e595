// The injection library's settings, read from the environment the launcher prepared
// (src/contract/README.md). Reading never fails: a bad value
// becomes a one-line warning and the documented default, because the traced program must
// run whatever we were handed.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "contract/report_path_rules.h"
#include "inject/rank_identity.h"
#include "model/profile_records.h"
#include "util/kernel_filter.h"
#include "util/nvtx_range_filter.h"
#include "util/report_permissions.h"
#include "util/trace_scope.h"

namespace gpuscope::inject {

inline constexpr unsigned kDefaultFlushMs = 500;

// `gpuscope profile`: what to measure and for which launches (GPUSCOPE_PROFILE_* and the
// filter variables; src/contract/README.md lists them). Absent metrics: tracing only.
struct ProfileConfig {
  std::vector<std::string> metrics;  // GPUSCOPE_PROFILE_METRICS, comma separated
  KernelFilterSpec filter;
  model::ReplayMode replay_mode = model::ReplayMode::kKernel;  // GPUSCOPE_REPLAY_MODE
  // GPUSCOPE_NVTX_INCLUDE: app-range measures these NVTX ranges (empty: cudaProfilerStart/Stop).
  NvtxRangeFilter nvtx_include;
  // GPUSCOPE_CACHE_CONTROL: kernel replay flushes L2 before each pass (ncu's default).
  bool flush_caches = true;
  // GPUSCOPE_REPLAY_NO_RESTORE: kernel replay saves and restores device memory around its
  // passes unless the user said the kernel leaves its inputs unchanged (--replay-no-restore).
  bool restore_memory = true;
  // The config image the CLI built for `prebuilt_chip` (GPUSCOPE_PROFILE_CONFIG_FILE,
  // GPUSCOPE_PROFILE_CHIP, GPUSCOPE_PROFILE_PASSES); empty: built here when needed.
  // --replay-mode application and app-range: this run is pass `app_pass` of `app_passes`; the counter data
  // lives in `app_dir` between runs (GPUSCOPE_REPLAY_PASS, _PASSES, _DIR).
  std::uint32_t app_pass = 0;
  std::uint32_t app_passes = 0;
  std::string app_dir;
  // GPUSCOPE_PROFILE_SOURCE: own replay passes for per-instruction data before the counters.
  bool source_counters = false;
  std::vector<std::uint8_t> prebuilt_config;
  std::string prebuilt_chip;
  std::uint32_t prebuilt_passes = 0;
  bool enabled() const { return !metrics.empty(); }
};

// `gpuscope run --gpu-metrics`: the set sampled on every device, and how often
// (GPUSCOPE_GPU_METRICS_SET, GPUSCOPE_GPU_METRICS_FREQUENCY). An empty set: no sampling.
struct GpuMetricsConfig {
  std::string set_name;
  std::uint32_t frequency_hz = 0;
  // GPUSCOPE_PM_SAMPLING_RECORD: where each device's sampling session is recorded for the
  // GPU-free tests (cupti/pm_sampling/pm_sampling_calls.h); empty: not recorded.
  std::string record_path;
  bool enabled() const { return !set_name.empty(); }
};

struct InjectionConfig {
  std::string report_pattern = contract::kDefaultReportPattern;  // GPUSCOPE_REPORT, unexpanded
  std::optional<unsigned> root_pid;     // GPUSCOPE_ROOT_PID; unset: we are root
  bool follow_children = true;          // GPUSCOPE_FOLLOW_CHILDREN
  bool force_overwrite = false;         // GPUSCOPE_FORCE_OVERWRITE
  bool profile_from_start = true;       // GPUSCOPE_PROFILE_FROM_START
  unsigned flush_ms = kDefaultFlushMs;  // GPUSCOPE_FLUSH_MS
  std::string manifest_path;            // GPUSCOPE_MANIFEST; empty: none
  bool debug = false;                   // GPUSCOPE_DEBUG
  bool quiet = false;  // GPUSCOPE_QUIET: no banner (--quiet, or output sent to --log-file)
  bool backtrace = false;  // GPUSCOPE_BACKTRACE: host call stacks (inject/call_stacks.h)
  // GPUSCOPE_REPORT_PERMISSIONS: the mode new reports get (util/report_permissions.h).
  ReportPermissions report_permissions = kDefaultReportPermissions;
  // GPUSCOPE_TRACE, GPUSCOPE_API_CAPTURE, GPUSCOPE_CUDA_GRAPH_TRACE: what is recorded, how.
  TraceScope trace;
  ProfileConfig profile;
  GpuMetricsConfig gpu_metrics;
  // The job launcher's rank variables (OMPI_COMM_WORLD_RANK, ..., rank_identity.h).
  RankIdentity identity;
  // One line per variable that held a value we could not use (the default was used).
  std::vector<std::string> warnings;
};

// Environment lookup; nullptr means "not set". Tests pass a map, production ::getenv.
using EnvironmentLookup = std::function<const char*(const char*)>;

InjectionConfig ReadInjectionConfig(const EnvironmentLookup& getenv);

// The process the launcher started is the root; every other process is a child. Without
// GPUSCOPE_ROOT_PID (the library loaded by hand, not by `gpuscope run`) we are the root.
bool IsRootProcess(const InjectionConfig& config, unsigned pid);

// Whether this process should be traced at all (children only when following them).
bool ShouldTrace(const InjectionConfig& config, unsigned pid);

}  // namespace gpuscope::inject
