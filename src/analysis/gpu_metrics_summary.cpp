#include "analysis/gpu_metrics_summary.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include "analysis/gpu_metric_samples.h"
#include "util/demangle.h"

namespace gpuscope::analysis {
namespace {

// One device's samples, in time order (the writer stores them so; sorted anyway, cheaply).
struct DeviceSamples {
  std::vector<model::Timestamp> starts, ends;
  std::vector<double> values;  // metric_count per sample
  std::size_t metric_count = 0;
};

struct Accumulator {
  std::uint64_t samples = 0;
  std::uint64_t covered_ns = 0;
  double weighted_sum = 0;
  double peak = -INFINITY;
};

using Key = std::tuple<int, std::string, std::uint32_t>;  // scope, name, device
using Accumulators = std::map<Key, std::vector<Accumulator>>;

// Adds every sample of `device` that overlaps [start, end) to `into` (one per metric).
void AddOverlap(const DeviceSamples& device, model::Timestamp start, model::Timestamp end,
                std::vector<Accumulator>& into) {
  if (end <= start || device.starts.empty()) return;
  into.resize(device.metric_count);
  // The first sample whose end is after `start` (ends are ascending: samples do not overlap).
  auto first = std::upper_bound(device.ends.begin(), device.ends.end(), start);
  for (std::size_t i = static_cast<std::size_t>(first - device.ends.begin());
       i < device.starts.size() && device.starts[i] < end; ++i) {
    const model::Timestamp lo = std::max(start, device.starts[i]);
    const model::Timestamp hi = std::min(end, device.ends[i]);
    if (hi <= lo) continue;
    const double weight = static_cast<double>(hi - lo);
    for (std::size_t m = 0; m < device.metric_count; ++m) {
      const double value = device.values[i * device.metric_count + m];
      if (std::isnan(value)) continue;
      Accumulator& a = into[m];
      ++a.samples;
      a.covered_ns += hi - lo;
      a.weighted_sum += value * weight;
      a.peak = std::max(a.peak, value);
    }
  }
}

std::string Thousands(std::uint64_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace

StatusOr<GpuMetricsSummary> SummarizeGpuMetrics(const store::ReportReader& report) {
  GpuMetricsSummary summary;
  StatusOr<std::vector<store::StoredGpuMetric>> metrics = store::ReadGpuMetrics(report);
  if (!metrics.ok()) return metrics.status();
  StatusOr<std::vector<store::StoredGpuMetricSampling>> sampling =
      store::ReadGpuMetricSampling(report);
  if (!sampling.ok()) return sampling.status();
  summary.sampling = std::move(*sampling);
  if (metrics->empty()) return summary;

  std::map<std::uint32_t, std::vector<const store::StoredGpuMetric*>> by_device;
  for (const store::StoredGpuMetric& metric : *metrics) by_device[metric.device_id].push_back(&metric);
  std::map<std::uint32_t, DeviceSamples> samples;
  GPUSCOPE_RETURN_IF_ERROR(ForEachPossibleGpuMetricSample(
      report, *metrics,
      [&](const store::StoredGpuMetricSample& sample) {
        DeviceSamples& device = samples[sample.device_id];
        device.metric_count = sample.values.size();
        device.starts.push_back(sample.start);
        device.ends.push_back(sample.end);
        device.values.insert(device.values.end(), sample.values.begin(), sample.values.end());
        return true;
      },
      summary.impossible_values, &summary.damaged_samples));

  Accumulators acc;
  for (const auto& [device_id, device] : samples) {
    if (device.starts.empty()) continue;
    // Not assumed: the run is every sample, whole.
    std::vector<Accumulator>& run = acc[{0, std::string(), device_id}];
    AddOverlap(device, device.starts.front(), device.ends.back(), run);
  }
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachKernel([&](const store::KernelRow& row) {
    auto device = samples.find(row.record.device_id);
    if (device == samples.end() || row.record.start == 0 || row.record.end <= row.record.start) {
      return true;
    }
    std::string name = row.demangled_name.empty() ? Demangle(row.record.mangled_name)
                                                  : std::string(row.demangled_name);
    AddOverlap(device->second, row.record.start, row.record.end,
               acc[{1, std::move(name), row.record.device_id}]);
    return true;
  }));
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachNvtx([&](const model::NvtxRecord& range) {
    if (range.end <= range.start) return true;  // marks and ranges that never ended
    // NVTX ranges are the host's: they cover every device of the process.
    for (const auto& [device_id, device] : samples) {
      AddOverlap(device, range.start, range.end, acc[{2, std::string(range.name), device_id}]);
    }
    return true;
  }));

  for (const auto& [key, accumulators] : acc) {
    const auto& [scope, name, device_id] = key;
    const auto& device_metrics = by_device[device_id];
    for (std::size_t m = 0; m < accumulators.size() && m < device_metrics.size(); ++m) {
      const Accumulator& a = accumulators[m];
      if (a.samples == 0) continue;
      GpuMetricAggregate& row = summary.rows.emplace_back();
      row.scope = static_cast<GpuMetricScope>(scope);
      row.name = name;
      row.device_id = device_id;
      row.label = device_metrics[m]->label;
      row.unit = device_metrics[m]->unit;
      row.role = device_metrics[m]->role;
      row.samples = a.samples;
      row.covered_ns = a.covered_ns;
      row.average = a.covered_ns != 0 ? a.weighted_sum / static_cast<double>(a.covered_ns) : 0;
      row.peak = a.peak;
    }
  }
  return summary;
}

std::vector<std::string> GpuMetricSamplingNotes(const GpuMetricsSummary& summary) {
  std::vector<std::string> notes;
  for (const store::StoredGpuMetricSampling& device : summary.sampling) {
    std::string prefix = "GPU metrics, device " + std::to_string(device.device_id) + ": ";
    if (!device.status.empty()) notes.push_back(prefix + device.status);
    if (device.dropped_samples == 0 && device.overflows == 0) continue;
    std::string note = prefix + Thousands(device.samples) + " samples kept, " +
                       Thousands(device.dropped_samples) + " dropped";
    if (device.overflows != 0) {
      note += "; the hardware buffer overflowed " + Thousands(device.overflows) + " times";
      if (device.fitting_interval_ns != 0) {
        note += " (a rate of at most " + Thousands(1'000'000'000ull / device.fitting_interval_ns) +
                " samples/s would fit: --gpu-metrics-frequency)";
      }
    }
    notes.push_back(note);
  }
  if (summary.damaged_samples != 0) {
    notes.push_back(Thousands(summary.damaged_samples) +
                    " GPU metric samples could not be read (damaged rows, left out)");
  }
  if (std::optional<std::string> impossible =
          ImpossibleValueWarning(summary.impossible_values, CheckedValues::kGpuMetricSamples)) {
    notes.push_back(*impossible);
  }
  return notes;
}

StatusOr<StatsTable> BuildGpuMetricsSum(const Reports& reports) {
  StatsTable table;
  table.title = "GPU Metrics Summary";
  table.name = "gpu_metrics_sum";
  table.subject = "GPU metric samples (gpuscope run --gpu-metrics)";
  table.columns = {{"Device", ColumnKind::kInteger}, {"Scope", ColumnKind::kText},
                   {"Name", ColumnKind::kText},      {"Metric", ColumnKind::kText},
                   {"Unit", ColumnKind::kText},      {"Samples", ColumnKind::kInteger},
                   {"Avg", ColumnKind::kDecimal1},   {"Peak", ColumnKind::kDecimal1}};
  for (const store::ReportReader* report : reports) {
    StatusOr<GpuMetricsSummary> summary = SummarizeGpuMetrics(*report);
    if (!summary.ok()) return summary.status();
    for (const GpuMetricAggregate& row : summary->rows) {
      // Bandwidths in GB/s (10^9 bytes), as Nsight Systems shows them: byte/second values of
      // terabytes per second do not read.
      const bool bytes = row.unit == "byte/second";
      const double scale = bytes ? 1e-9 : 1.0;
      static constexpr const char* kScopes[] = {"run", "kernel", "nvtx"};
      table.rows.push_back({IntegerCell(row.device_id),
                            TextCell(kScopes[static_cast<int>(row.scope)]),
                            TextCell(row.scope == GpuMetricScope::kRun ? "(all samples)" : row.name),
                            TextCell(row.label), TextCell(bytes ? "GB/s" : row.unit),
                            IntegerCell(row.samples), DecimalCell(row.average * scale),
                            DecimalCell(row.peak * scale)});
    }
    // Losses and failures as rows of their own (scope "sampling"), so that every format shows
    // them: never hidden.
    for (std::string& note : GpuMetricSamplingNotes(*summary)) {
      table.rows.push_back({EmptyCell(), TextCell("sampling"), TextCell(std::move(note)),
                            TextCell(""), TextCell(""), EmptyCell(), EmptyCell(), EmptyCell()});
    }
  }
  return table;
}

}  // namespace gpuscope::analysis
