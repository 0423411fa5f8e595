// The tables of `gpuscope run --gpu-metrics` (device-wide hardware counters sampled over the
// run), each declared once (table_info.h); read back by gpu_metric_tables.h.
#pragma once

#include "store/table_info.h"

namespace gpuscope::store {

// clang-format off
inline constexpr ColumnInfo kGpuMetricsColumns[] = {
    {"device_id", "INTEGER NOT NULL", "devices.id"},
    {"idx", "INTEGER NOT NULL", "position of the metric's value in gpu_metric_samples.metric_values"},
    {"name", "TEXT NOT NULL", "CUPTI's metric name, e.g. 'sm__cycles_active.avg.pct_of_peak_sustained_elapsed'"},
    {"label", "TEXT NOT NULL", "what gpuscope calls it, e.g. 'SM Active'"},
    {"unit", "TEXT NOT NULL", "'%', 'byte/second', ..."},
    {"role", "INTEGER NOT NULL", "what the analysis uses it for (GpuMetricRole in\n"
      "src/util/gpu_metric_sets.h; 0: nothing in particular)"},
};

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

inline constexpr ColumnInfo kGpuMetricSamplesColumns[] = {
    {"id", "INTEGER PRIMARY KEY", "insertion order (time order per device)"},
    {"device_id", "INTEGER NOT NULL", "devices.id"},
    {"start", "INTEGER NOT NULL", "ns, relative: the sample's start (CUPTI's clock, like kernels)"},
    {"end", "INTEGER NOT NULL", "ns, relative: the sample's end"},
    {"metric_values", "BLOB NOT NULL", "little-endian IEEE 754 doubles, one per gpu_metrics row of\n"
      "the device, in idx order; NaN: CUPTI could not evaluate it"},
};

inline constexpr TableInfo kGpuMetricSamplesTable = {
    .name = "gpu_metric_samples",
    .doc = "One row per sample (10,000 per second per device at the default rate): one row holds all\n"
           "the metrics of the sample, so that a sample costs one insert and streams in time order.",
    .columns = kGpuMetricSamplesColumns,
};

inline constexpr ColumnInfo kGpuMetricSamplingColumns[] = {
    {"device_id", "INTEGER PRIMARY KEY", "devices.id"},
    {"chip", "TEXT NOT NULL", "e.g. 'GH100'"},
    {"set_name", "TEXT NOT NULL", "--gpu-metrics-set"},
    {"interval_ns", "INTEGER NOT NULL", "asked: 1e9 / --gpu-metrics-frequency"},
    {"hardware_buffer_bytes", "INTEGER NOT NULL", "the buffer the GPU writes samples into"},
    {"samples", "INTEGER NOT NULL", "samples kept (rows in gpu_metric_samples)"},
    {"dropped_samples", "INTEGER NOT NULL", "samples lost (buffer overflow, partly decoded, unevaluable)"},
    {"overflows", "INTEGER NOT NULL", "times the hardware buffer was found overflowed"},
    {"fitting_interval_ns", "INTEGER NOT NULL", "with overflows: an interval whose samples would have\n"
      "fitted (0: unknown)"},
    {"status", "TEXT NOT NULL", "'' sampled; else why nothing (or not all) was sampled"},
};

inline constexpr TableInfo kGpuMetricSamplingTable = {
    .name = "gpu_metric_sampling",
    .doc = "How sampling went on each device: what was asked, what was kept and what was lost. Never\n"
           "hidden: readers print the losses and the rate that would have fitted.",
    .columns = kGpuMetricSamplingColumns,
    .without_rowid = true,
};
// clang-format on

}  // namespace gpuscope::store
