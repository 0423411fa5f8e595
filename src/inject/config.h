// The injection library's settings, read from the environment the launcher prepared
// (src/contract/README.md). Reading never fails: a bad value
// becomes a one-line warning and the documented default, because the traced program must
// run whatever we were handed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "contract/environment_values.h"
#include "contract/gpu_metrics_request.h"
#include "contract/profile_request.h"
#include "contract/trace_request.h"
#include "inject/rank_identity.h"

namespace gpuscope::inject {

inline constexpr unsigned kDefaultFlushMs = 500;

// `gpuscope profile`: what to measure and for which launches, as the launcher asked
// (contract/profile_request.h), with the config image it names read from its file.
struct ProfileConfig : contract::ProfileRequest {
  // The bytes of config_image_file; empty: built here when needed (a file that cannot be read
  // only costs that time).
  std::vector<std::uint8_t> prebuilt_config;
};

// `gpuscope run --gpu-metrics` (contract/gpu_metrics_request.h), and where the sampling is
// recorded.
struct GpuMetricsConfig : contract::GpuMetricsRequest {
  // GPUSCOPE_PM_SAMPLING_RECORD: where each device's sampling session is recorded for the
  // GPU-free tests (cupti/pm_sampling/pm_sampling_calls.h); empty: not recorded.
  std::string record_path;
};

// What the launcher asked every traced run (contract/trace_request.h: the report, what is
// traced), and what the injection reads for itself.
struct InjectionConfig : contract::TraceRequest {
  std::optional<unsigned> root_pid;     // GPUSCOPE_ROOT_PID; unset: we are root
  unsigned flush_ms = kDefaultFlushMs;  // GPUSCOPE_FLUSH_MS
  bool debug = false;                   // GPUSCOPE_DEBUG
  ProfileConfig profile;
  GpuMetricsConfig gpu_metrics;
  // The job launcher's rank variables (OMPI_COMM_WORLD_RANK, ..., rank_identity.h).
  RankIdentity identity;
  // One line per variable that held a value we could not use (the default was used).
  std::vector<std::string> warnings;
};

// Environment lookup; nullptr means "not set". Tests pass a map, production ::getenv.
using contract::EnvironmentLookup;

InjectionConfig ReadInjectionConfig(const EnvironmentLookup& getenv);

// The process the launcher started is the root; every other process is a child. Without
// GPUSCOPE_ROOT_PID (the library loaded by hand, not by `gpuscope run`) we are the root.
bool IsRootProcess(const InjectionConfig& config, unsigned pid);

// Whether this process should be traced at all (children only when following them).
bool ShouldTrace(const InjectionConfig& config, unsigned pid);

}  // namespace gpuscope::inject
