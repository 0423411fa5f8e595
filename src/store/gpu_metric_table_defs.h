// The tables of `gpuscope run --gpu-metrics` (device-wide hardware counters sampled over the
// run), each declared once (table_info.h) with the members the writer binds from and the
// readers fill (record_column.h); read back by gpu_metric_tables.h.
#pragma once

#include <tuple>

#include "model/gpu_metric_records.h"
#include "store/gpu_metric_tables.h"
#include "store/record_column.h"
#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr auto kGpuMetricsRecordColumns = std::tuple{
    Stores<&model::GpuMetricRecord::device_id, &StoredGpuMetric::device_id>("device_id", "INTEGER NOT NULL", "devices.id"),
    Stores<&model::GpuMetricRecord::index, &StoredGpuMetric::index>("idx", "INTEGER NOT NULL", "position of the metric's value in gpu_metric_samples.metric_values"),
    Stores<&model::GpuMetricRecord::name, &StoredGpuMetric::name>("name", "TEXT NOT NULL", "CUPTI's metric name, e.g. 'sm__cycles_active.avg.pct_of_peak_sustained_elapsed'"),
    Stores<&model::GpuMetricRecord::label, &StoredGpuMetric::label>("label", "TEXT NOT NULL", "what gpuscope calls it, e.g. 'SM Active'"),
    Stores<&model::GpuMetricRecord::unit, &StoredGpuMetric::unit>("unit", "TEXT NOT NULL", "'%', 'byte/second', ..."),
    Stores<&model::GpuMetricRecord::role, &StoredGpuMetric::role>("role", "INTEGER NOT NULL", "what the analysis uses it for (GpuMetricRole in\n"
      "src/util/gpu_metric_sets.h; 0: nothing in particular)"),
};
inline constexpr auto kGpuMetricsColumns = ColumnInfosOf(kGpuMetricsRecordColumns);

inline constexpr TableInfo kGpuMetricsTable = {
    .name = "gpu_metrics",
    .doc = "`gpuscope run --gpu-metrics`: device-wide hardware counters sampled over the run (CUPTI's PM\n"
           "sampling). Reports without these tables (older gpuscope, or written without --gpu-metrics by\n"
           "one) read as \"no GPU metrics\"; readers check that the tables exist, as for the source tables.\n"
           "\n"
           "The metrics sampled on each device, in the order of the values of its samples.",
    .columns = kGpuMetricsColumns,
    .constraint = "PRIMARY KEY (device_id, idx)",
    .without_rowid = true,
};

inline constexpr auto kGpuMetricSamplesRecordColumns = std::tuple{
    BoundApart("id", "INTEGER PRIMARY KEY", "insertion order (time order per device)"),
    Stores<&model::GpuMetricSampleRecord::device_id, &StoredGpuMetricSample::device_id>("device_id", "INTEGER NOT NULL", "devices.id"),
    StoresTime<&model::GpuMetricSampleRecord::start, &StoredGpuMetricSample::start>("start", "INTEGER NOT NULL", "ns, relative: the sample's start (CUPTI's clock, like kernels)"),
    StoresTime<&model::GpuMetricSampleRecord::end, &StoredGpuMetricSample::end>("end", "INTEGER NOT NULL", "ns, relative: the sample's end"),
    StoresBytes<&model::GpuMetricSampleRecord::values, nullptr>("metric_values", "BLOB NOT NULL", "little-endian IEEE 754 doubles, one per gpu_metrics row of\n"
      "the device, in idx order; NaN: CUPTI could not evaluate it"),
};
inline constexpr auto kGpuMetricSamplesColumns = ColumnInfosOf(kGpuMetricSamplesRecordColumns);

inline constexpr TableInfo kGpuMetricSamplesTable = {
    .name = "gpu_metric_samples",
    .doc = "One row per sample (10,000 per second per device at the default rate): one row holds all\n"
           "the metrics of the sample, so that a sample costs one insert and streams in time order.",
    .columns = kGpuMetricSamplesColumns,
};

inline constexpr auto kGpuMetricSamplingRecordColumns = std::tuple{
    Stores<&model::GpuMetricSamplingRecord::device_id, &StoredGpuMetricSampling::device_id>("device_id", "INTEGER PRIMARY KEY", "devices.id"),
    Stores<&model::GpuMetricSamplingRecord::chip, &StoredGpuMetricSampling::chip>("chip", "TEXT NOT NULL", "e.g. 'GH100'"),
    Stores<&model::GpuMetricSamplingRecord::set_name, &StoredGpuMetricSampling::set_name>("set_name", "TEXT NOT NULL", "--gpu-metrics-set"),
    Stores<&model::GpuMetricSamplingRecord::interval_ns, &StoredGpuMetricSampling::interval_ns>("interval_ns", "INTEGER NOT NULL", "asked: 1e9 / --gpu-metrics-frequency"),
    Stores<&model::GpuMetricSamplingRecord::hardware_buffer_bytes, &StoredGpuMetricSampling::hardware_buffer_bytes>("hardware_buffer_bytes", "INTEGER NOT NULL", "the buffer the GPU writes samples into"),
    Stores<&model::GpuMetricSamplingRecord::samples, &StoredGpuMetricSampling::samples>("samples", "INTEGER NOT NULL", "samples kept (rows in gpu_metric_samples)"),
    Stores<&model::GpuMetricSamplingRecord::dropped_samples, &StoredGpuMetricSampling::dropped_samples>("dropped_samples", "INTEGER NOT NULL", "samples lost (buffer overflow, partly decoded, unevaluable)"),
    Stores<&model::GpuMetricSamplingRecord::overflows, &StoredGpuMetricSampling::overflows>("overflows", "INTEGER NOT NULL", "times the hardware buffer was found overflowed"),
    Stores<&model::GpuMetricSamplingRecord::fitting_interval_ns, &StoredGpuMetricSampling::fitting_interval_ns>("fitting_interval_ns", "INTEGER NOT NULL", "with overflows: an interval whose samples would have\n"
      "fitted (0: unknown)"),
    Stores<&model::GpuMetricSamplingRecord::status, &StoredGpuMetricSampling::status>("status", "TEXT NOT NULL", "'' sampled; else why nothing (or not all) was sampled"),
};
inline constexpr auto kGpuMetricSamplingColumns = ColumnInfosOf(kGpuMetricSamplingRecordColumns);

inline constexpr TableInfo kGpuMetricSamplingTable = {
    .name = "gpu_metric_sampling",
    .doc = "How sampling went on each device: what was asked, what was kept and what was lost. Never\n"
           "hidden: readers print the losses and the rate that would have fitted.",
    .columns = kGpuMetricSamplingColumns,
    .without_rowid = true,
};
// clang-format on

}  // namespace gpuscope::store
