#include "cli/reports/gpu_metric_listing.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "cupti/host/metric_host.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::cli {
namespace {

std::string Pad(std::string_view text, std::size_t width) {
  std::string out(text);
  if (out.size() < width) out.append(width - out.size(), ' ');
  return out;
}

}  // namespace

Status PrintGpuMetricSets(std::ostream& out, const std::string& chip) {
  using cupti::host::MetricHost;
  StatusOr<std::unique_ptr<MetricHost>> host =
      MetricHost::Open(chip, cupti::host::ProfilerKind::kPmSampling);
  if (!host.ok()) return host.status();
  out << "GPU metric sets for " << (*host)->chip()
      << " (gpuscope run --gpu-metrics-set NAME; default '" << kDefaultGpuMetricSet << "', "
      << kDefaultGpuMetricsFrequencyHz << " samples/s)\n";
  std::string problems;
  for (const GpuMetricSet& set : GpuMetricSets()) {
    std::vector<std::string> names;
    for (const GpuMetricSpec& metric : set.metrics) names.emplace_back(metric.name);
    // The whole set, configured the way the injection configures it (one config image).
    StatusOr<cupti::host::ConfigImage> config = (*host)->MakeConfig(names);
    out << "\n" << set.name << ": " << set.description << "\n";
    if (!config.ok()) {
      out << "  CUPTI cannot configure this set on " << (*host)->chip() << ": "
          << config.status().message() << "\n";
      problems.append(" ").append(set.name);
    }
    std::size_t label_width = 0;
    for (const GpuMetricSpec& metric : set.metrics) {
      label_width = std::max(label_width, metric.label.size());
    }
    for (const GpuMetricSpec& metric : set.metrics) {
      Status checked = (*host)->CheckMetric(metric.name);
      out << "  " << Pad(metric.label, label_width) << "  " << Pad(metric.unit, 12) << "  "
          << metric.name;
      if (metric.only_where_present) out << "  (where the GPU has it)";
      if (!checked.ok()) {
        out << "  NOT IN THE CATALOG: " << checked.message();
        problems.append(" ").append(metric.name);
      }
      out << "\n";
    }
  }
  if (!problems.empty()) {
    return Status::Error("CUPTI's PM sampling catalog for " + (*host)->chip() +
                         " refuses:" + problems);
  }
  return Status();
}

}  // namespace gpuscope::cli
