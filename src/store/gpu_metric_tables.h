// The GPU metric tables read back typed (`gpuscope run --gpu-metrics`: gpu_metrics,
// gpu_metric_samples, gpu_metric_sampling in schema.sql). A report without them (older
// gpuscope) reads as "no GPU metrics". Samples whose values cannot be true (a blob that does not
// hold one double per metric of the device, an end before the start) are left out and counted.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "model/records.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

struct StoredGpuMetric {
  std::uint32_t device_id = 0;
  std::uint32_t index = 0;
  std::string name;
  std::string label;
  std::string unit;
  std::uint8_t role = 0;  // GpuMetricRole
};

struct StoredGpuMetricSampling {
  std::uint32_t device_id = 0;
  std::string chip;
  std::string set_name;
  std::uint64_t interval_ns = 0;
  std::uint64_t hardware_buffer_bytes = 0;
  std::uint64_t samples = 0;
  std::uint64_t dropped_samples = 0;
  std::uint64_t overflows = 0;
  std::uint64_t fitting_interval_ns = 0;
  std::string status;
};

struct StoredGpuMetricSample {
  std::uint32_t device_id = 0;
  model::Timestamp start = 0;  // absolute, CUPTI's clock
  model::Timestamp end = 0;
  std::vector<double> values;  // in the device's metric order
};

bool HasGpuMetricTables(const ReportReader& report);

// Ordered by device, then index.
StatusOr<std::vector<StoredGpuMetric>> ReadGpuMetrics(const ReportReader& report);
// Ordered by device.
StatusOr<std::vector<StoredGpuMetricSampling>> ReadGpuMetricSampling(const ReportReader& report);

// Each sample in insertion order (time order within a device); `fn` returns false to stop.
// `damaged` (may be null) counts the rows left out.
Status ForEachGpuMetricSample(const ReportReader& report,
                              const std::function<bool(const StoredGpuMetricSample&)>& fn,
                              std::uint64_t* damaged = nullptr);

}  // namespace gpuscope::store
