// What the GPU metric sampler (cupti/pm_sampling) hands the collector for one device at a time:
// the device's metrics (once), decoded samples, and how sampling stands. Owned strings and
// flat arrays, so that a batch crosses threads as one move.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/gpu_metric_records.h"

namespace gpuscope::inject {

struct OwnedGpuMetric {
  std::string name, label, unit;
  std::uint8_t role = 0;
};

struct OwnedGpuMetricSampling {
  std::string chip, set_name, status;
  std::uint64_t interval_ns = 0, hardware_buffer_bytes = 0, samples = 0, dropped_samples = 0,
                overflows = 0, fitting_interval_ns = 0;

  model::GpuMetricSamplingRecord View(std::uint32_t device_id) const {
    return {device_id,     chip,      set_name,        interval_ns, hardware_buffer_bytes,
            samples,       dropped_samples, overflows, fitting_interval_ns, status};
  }
};

struct GpuMetricBatch {
  std::uint32_t device_id = 0;
  std::vector<OwnedGpuMetric> metrics;  // the device's metrics: in its first batch only
  std::size_t metric_count = 0;         // values per sample
  std::vector<model::Timestamp> starts, ends;
  std::vector<double> values;  // metric_count per sample, sample after sample
  std::optional<OwnedGpuMetricSampling> sampling;

  std::size_t samples() const { return starts.size(); }
  model::GpuMetricSampleRecord Sample(std::size_t i) const {
    return {device_id, starts[i], ends[i],
            std::span<const double>(values).subspan(i * metric_count, metric_count)};
  }
};

}  // namespace gpuscope::inject
