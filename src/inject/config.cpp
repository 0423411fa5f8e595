#include "inject/config.h"

#include <fstream>
#include <iterator>
#include <string_view>

#include "contract/environment_variables.h"

namespace gpuscope::inject {

using namespace contract;  // the variable names (environment_variables.h)

namespace {

// Longest flush period we accept: beyond an hour "periodic" flushing means nothing.
constexpr unsigned kMaxFlushMs = 3'600'000;

void AddWarnings(std::vector<std::string>& warnings, const std::vector<std::string>& problems,
                 std::string_view consequence = {}) {
  for (const std::string& problem : problems) {
    warnings.push_back(problem + std::string(consequence));
  }
}

// The launcher validated the request before the program started; a problem here means someone
// set the variables by hand. Then nothing is profiled (tracing goes on).
void ReadProfileConfig(const EnvironmentLookup& getenv, InjectionConfig& config) {
  RequestReading<ProfileRequest> reading = ProfileRequest::FromEnvironment(getenv);
  AddWarnings(config.warnings, reading.problems, "; no kernel is profiled (tracing goes on)");
  static_cast<ProfileRequest&>(config.profile) = std::move(reading.request);
  // The prebuilt config image: a problem here only costs time (the image is built again).
  if (config.profile.config_image_file.empty()) return;
  std::ifstream in{config.profile.config_image_file, std::ios::binary};
  config.profile.prebuilt_config.assign(std::istreambuf_iterator<char>(in),
                                        std::istreambuf_iterator<char>());
}

void ReadGpuMetricsConfig(const EnvironmentLookup& getenv, InjectionConfig& config) {
  RequestReading<GpuMetricsRequest> reading = GpuMetricsRequest::FromEnvironment(getenv);
  AddWarnings(config.warnings, reading.problems);
  static_cast<GpuMetricsRequest&>(config.gpu_metrics) = std::move(reading.request);
  if (!config.gpu_metrics.enabled()) return;
  if (const char* record = getenv(kPmSamplingRecordVariable)) config.gpu_metrics.record_path = record;
}

}  // namespace

InjectionConfig ReadInjectionConfig(const EnvironmentLookup& getenv) {
  InjectionConfig config;
  if (std::optional<std::string_view> root = GivenValue(getenv, kRootPidVariable)) {
    std::optional<unsigned> pid = ParseUnsigned(*root);
    if (pid && *pid > 0) {
      config.root_pid = *pid;
    } else {
      config.warnings.push_back(std::string(kRootPidVariable) + "='" + std::string(*root) +
                                "' is not a process id; treating this process as the root");
    }
  }
  RequestReading<TraceRequest> trace = TraceRequest::FromEnvironment(getenv);
  AddWarnings(config.warnings, trace.problems);
  static_cast<TraceRequest&>(config) = std::move(trace.request);
  ReadFlag(getenv, kDebugVariable, config.debug, config.warnings);
  if (std::optional<std::string_view> flush = GivenValue(getenv, kFlushMsVariable)) {
    std::optional<unsigned> ms = ParseUnsigned(*flush);
    if (ms && *ms >= 1 && *ms <= kMaxFlushMs) {
      config.flush_ms = *ms;
    } else {
      config.warnings.push_back(std::string(kFlushMsVariable) + "='" + std::string(*flush) +
                                "' is not a number of milliseconds from 1 to " +
                                std::to_string(kMaxFlushMs) + "; using " +
                                std::to_string(kDefaultFlushMs));
    }
  }
  ReadProfileConfig(getenv, config);
  ReadGpuMetricsConfig(getenv, config);
  config.identity = ReadRankIdentity(getenv, config.warnings);
  return config;
}

bool IsRootProcess(const InjectionConfig& config, unsigned pid) {
  return !config.root_pid.has_value() || *config.root_pid == pid;
}

bool ShouldTrace(const InjectionConfig& config, unsigned pid) {
  return config.follow_children || IsRootProcess(config, pid);
}

}  // namespace gpuscope::inject
