// What `gpuscope run --gpu-metrics` asks of the injection: the metric set sampled on every
// device, and how often (GPUSCOPE_GPU_METRICS_SET, GPUSCOPE_GPU_METRICS_FREQUENCY). Written by
// the launcher (ToEnvironment), read by the injection (FromEnvironment).
#pragma once

#include <cstdint>
#include <string>

#include "contract/environment_values.h"

namespace gpuscope::contract {

struct GpuMetricsRequest {
  std::string set_name;           // a set of util/gpu_metric_sets.h; empty: no sampling
  std::uint32_t frequency_hz = 0;  // samples per second, with a set

  bool enabled() const { return !set_name.empty(); }

  // Both variables, always (empty without a set), so that a run inside a sampled program
  // samples nothing unless asked.
  VariableValues ToEnvironment() const;

  // An unknown set: no sampling, with a problem line; a rate out of range: the default rate
  // (kDefaultGpuMetricsFrequencyHz), with a problem line. The launcher checked both, so only
  // a hand-set environment gets either.
  static RequestReading<GpuMetricsRequest> FromEnvironment(const EnvironmentLookup& getenv);
};

}  // namespace gpuscope::contract
