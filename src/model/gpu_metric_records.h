// The records of `gpuscope run --gpu-metrics` (device-wide counters sampled with CUPTI's PM
// sampling): kept apart from records.h, which nearly every file includes, since only the
// collector, the store and the sampler need them.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "model/records.h"

namespace gpuscope::model {

// `gpuscope run --gpu-metrics`: one metric sampled on a device (CUPTI's PM sampling). `index`
// is its position in the device's set: the position of its value in every sample of that device.
struct GpuMetricRecord {
  std::uint32_t device_id = 0;
  std::uint32_t index = 0;
  std::string_view name;   // CUPTI's full name
  std::string_view label;  // "SM Active"
  std::string_view unit;   // "%", "byte/second"
  std::uint8_t role = 0;   // GpuMetricRole (util/gpu_metric_sets.h)
};

// One sample of a device's metrics: the values over [start, end), on the clock of every record,
// in the order of the device's GpuMetricRecords (NaN: CUPTI could not evaluate it).
struct GpuMetricSampleRecord {
  std::uint32_t device_id = 0;
  Timestamp start = 0;
  Timestamp end = 0;
  std::span<const double> values;
};

// How sampling went on a device: what was asked, what was kept, what was lost and why. The
// latest record of a device wins (sent at start, at each decode that lost samples, at the end).
struct GpuMetricSamplingRecord {
  std::uint32_t device_id = 0;
  std::string_view chip;
  std::string_view set_name;
  std::uint64_t interval_ns = 0;       // asked: 1e9 / frequency
  std::uint64_t hardware_buffer_bytes = 0;
  std::uint64_t samples = 0;           // kept (written)
  std::uint64_t dropped_samples = 0;   // lost: missed by a full buffer, partial, unevaluable
  std::uint64_t overflows = 0;         // decodes that found the hardware buffer overflowed
  // With overflows: the longest interval (ns) whose samples would have fit (0: unknown).
  std::uint64_t fitting_interval_ns = 0;
  std::string_view status;             // empty: sampled; else why not (one line)
};

}  // namespace gpuscope::model
