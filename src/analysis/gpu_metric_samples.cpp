#include "analysis/gpu_metric_samples.h"

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <string>

namespace gpuscope::analysis {

Status ForEachPossibleGpuMetricSample(
    const store::ReportReader& report, const std::vector<store::StoredGpuMetric>& metrics,
    const std::function<bool(const store::StoredGpuMetricSample&)>& fn,
    ImpossibleValueCounts& impossible, std::uint64_t* damaged) {
  std::map<std::uint32_t, std::map<std::uint32_t, const std::string*>> units;  // device, index
  for (const store::StoredGpuMetric& metric : metrics) {
    units[metric.device_id][metric.index] = &metric.unit;
  }
  auto why_impossible = [&](std::uint32_t device, std::size_t index,
                            double value) -> std::optional<ImpossibleValue> {
    if (std::isnan(value)) return std::nullopt;  // the sampler could not evaluate it
    auto device_units = units.find(device);
    if (device_units == units.end()) return CheckMetricValue(value, "");
    auto unit = device_units->second.find(static_cast<std::uint32_t>(index));
    return CheckMetricValue(value, unit == device_units->second.end() ? "" : *unit->second);
  };
  return store::ForEachGpuMetricSample(
      report,
      [&](const store::StoredGpuMetricSample& sample) {
        // Most samples hold only possible values: copied only when one is not.
        std::optional<store::StoredGpuMetricSample> checked;
        for (std::size_t m = 0; m < sample.values.size(); ++m) {
          std::optional<ImpossibleValue> why =
              why_impossible(sample.device_id, m, sample.values[m]);
          if (!why) continue;
          impossible.Add(*why);
          if (!checked) checked = sample;
          checked->values[m] = std::numeric_limits<double>::quiet_NaN();
        }
        return fn(checked ? *checked : sample);
      },
      damaged);
}

}  // namespace gpuscope::analysis
