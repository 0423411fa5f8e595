// `gpuscope stats --report gpu_metrics_sum`: the GPU metrics sampled by `gpuscope run
// --gpu-metrics`, per device and metric, as average and peak over the whole run, per kernel name
// (the samples inside its launches) and per NVTX range (the samples inside its instances).
//
// Averages are weighted by time: a sample counts for the nanoseconds it shares with the launch or
// range (all of itself for the run). A sample holds the device's average over its interval (100 us
// at the default 10 kHz), so a launch much shorter than a sample reads diluted by what ran around
// it; the peak is the highest sample that overlaps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/report_checks.h"
#include "analysis/stats_table.h"
#include "analysis/value_range.h"
#include "store/gpu_metric_tables.h"
#include "util/status.h"

namespace gpuscope::analysis {

enum class GpuMetricScope { kRun, kKernel, kNvtx };

struct GpuMetricAggregate {
  GpuMetricScope scope = GpuMetricScope::kRun;
  std::string name;  // the kernel's demangled name or the NVTX range's; empty for the run
  std::uint32_t device_id = 0;
  std::string label;  // "SM Active"
  std::string unit;   // as stored ("%", "byte/second")
  std::uint8_t role = 0;
  std::uint64_t samples = 0;    // samples that overlap (with a value)
  std::uint64_t covered_ns = 0; // the overlap in all
  double average = 0;           // time-weighted
  double peak = 0;
};

struct GpuMetricsSummary {
  // Run rows first (device, metric order), then kernels, then NVTX ranges (by name, device,
  // metric order).
  std::vector<GpuMetricAggregate> rows;
  std::vector<store::StoredGpuMetricSampling> sampling;  // per device: what was kept and lost
  std::uint64_t damaged_samples = 0;
  // Sample values left out because they cannot be true (gpu_metric_samples.h).
  ImpossibleValueCounts impossible_values;
};

// One report (a process). A report without GPU metrics gives an empty summary.
StatusOr<GpuMetricsSummary> SummarizeGpuMetrics(const store::ReportReader& report);

// The stats table of all reports, with a row (scope "sampling") per device that lost samples or
// could not be sampled.
StatusOr<StatsTable> BuildGpuMetricsSum(const Reports& reports);

// The notes of a summary: per device "device 0: 1,234 samples kept, 56 dropped (...)" and why a
// device was not sampled; empty when nothing was lost. `stats` prints them; the injection says the
// losses at the end of the run too (cupti/pm_sampling/pm_sampling_device.h: LossSummary).
std::vector<std::string> GpuMetricSamplingNotes(const GpuMetricsSummary& summary);

}  // namespace gpuscope::analysis
