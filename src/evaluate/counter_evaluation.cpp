#include "evaluate/counter_evaluation.h"

#include <optional>
#include <utility>

#include "evaluate/isolated_evaluation.h"

namespace gpuscope::evaluate {
namespace {

// One kernel's values, or why there are none.
StatusOr<std::vector<store::StoredMetric>> EvaluateKernel(
    const store::ReportReader& report, const analysis::metrics::KernelProfile& kernel,
    const std::vector<std::string>& metric_names, MetricHosts& hosts) {
  StatusOr<cupti::host::MetricHost*> host = hosts.For(kernel.chip);
  if (!host.ok()) return host.status();
  StatusOr<std::vector<std::uint8_t>> image = store::ReadCounterData(report, kernel.id);
  if (!image.ok()) return image.status();
  // Auto range: each image holds the one profiled launch it was collected for, range 0.
  StatusOr<std::vector<std::optional<double>>> evaluated =
      EvaluateIsolated(**host, *image, 0, metric_names);
  if (!evaluated.ok()) return evaluated.status();
  std::vector<store::StoredMetric> values;
  for (std::size_t i = 0; i < metric_names.size(); ++i) {
    store::StoredMetric metric;
    metric.name = metric_names[i];
    metric.value = (*evaluated)[i];
    metric.unit = (*host)->Describe(metric_names[i]).unit;
    values.push_back(std::move(metric));
  }
  return values;
}

}  // namespace

CounterValues EvaluateCounterData(const store::ReportReader& report,
                                  const std::vector<analysis::metrics::KernelProfile>& kernels,
                                  const std::vector<std::string>& metric_names,
                                  MetricHosts& hosts) {
  CounterValues result;
  EvaluationSummary& summary = result.summary;
  for (const analysis::metrics::KernelProfile& kernel : kernels) {
    if (!kernel.measured) continue;  // no counter data: `failure` says why
    ++summary.kernels;
    StatusOr<std::vector<store::StoredMetric>> values =
        EvaluateKernel(report, kernel, metric_names, hosts);
    if (!values.ok()) {
      ++summary.failed;
      summary.problems.push_back("kernel " + std::to_string(kernel.profile_index) + " (" +
                                 kernel.demangled_name + "): " + values.status().message());
      continue;
    }
    result.metrics[kernel.id] = std::move(*values);
  }
  return result;
}

}  // namespace gpuscope::evaluate
