#include "contract/gpu_metrics_request.h"

#include "contract/environment_variables.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::contract {

VariableValues GpuMetricsRequest::ToEnvironment() const {
  return {
      {kGpuMetricsSetVariable, set_name},
      {kGpuMetricsFrequencyVariable, enabled() ? std::to_string(frequency_hz) : std::string()},
  };
}

RequestReading<GpuMetricsRequest> GpuMetricsRequest::FromEnvironment(
    const EnvironmentLookup& getenv) {
  RequestReading<GpuMetricsRequest> reading;
  std::optional<std::string_view> set = GivenValue(getenv, kGpuMetricsSetVariable);
  if (!set) return reading;
  if (FindGpuMetricSet(*set) == nullptr) {
    reading.problems.push_back(std::string(kGpuMetricsSetVariable) + "='" + std::string(*set) +
                               "' is not a GPU metric set; sampling no GPU metrics");
    return reading;
  }
  reading.request.set_name = std::string(*set);
  reading.request.frequency_hz = kDefaultGpuMetricsFrequencyHz;
  std::optional<std::string_view> frequency = GivenValue(getenv, kGpuMetricsFrequencyVariable);
  if (!frequency) return reading;
  std::optional<unsigned> hz = ParseUnsigned(*frequency);
  if (hz && *hz >= kMinGpuMetricsFrequencyHz && *hz <= kMaxGpuMetricsFrequencyHz) {
    reading.request.frequency_hz = *hz;
  } else {
    reading.problems.push_back(
        std::string(kGpuMetricsFrequencyVariable) + "='" + std::string(*frequency) +
        "' is not a rate from " + std::to_string(kMinGpuMetricsFrequencyHz) + " to " +
        std::to_string(kMaxGpuMetricsFrequencyHz) + " Hz; using " +
        std::to_string(kDefaultGpuMetricsFrequencyHz));
  }
  return reading;
}

}  // namespace gpuscope::contract
