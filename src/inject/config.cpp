#include "inject/config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>

#include "contract/environment_variables.h"
#include "util/comma_list.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::inject {

using namespace contract;  // the variable names (environment_variables.h)

namespace {

// Longest flush period we accept: beyond an hour "periodic" flushing means nothing.
constexpr unsigned kMaxFlushMs = 3'600'000;

std::string Lowercase(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<bool> ParseBool(std::string_view text) {
  std::string value = Lowercase(text);
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  return std::nullopt;
}

std::optional<unsigned> ParseUnsigned(std::string_view text) {
  unsigned value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

void ReadBool(const EnvironmentLookup& getenv, const char* name, bool& field,
              std::vector<std::string>& warnings) {
  const char* raw = getenv(name);
  if (raw == nullptr || *raw == '\0') return;
  if (std::optional<bool> value = ParseBool(raw)) {
    field = *value;
    return;
  }
  warnings.push_back(std::string(name) + "='" + raw + "' is not 1 or 0; using " +
                     (field ? "1" : "0"));
}

// The launcher validated all of this before the program started; a bad value here means
// someone set the variables by hand. Then nothing is profiled (tracing goes on): measuring
// the wrong kernels would be worse than measuring none.
void ReadProfileConfig(const EnvironmentLookup& getenv, InjectionConfig& config) {
  ProfileConfig& profile = config.profile;
  const char* metrics = getenv(kProfileMetricsVariable);
  if (metrics == nullptr || *metrics == '\0') return;
  std::vector<std::string> names = SplitCommaList(metrics);
  std::vector<std::string> problems;
  auto text = [&](const char* name) -> std::optional<std::string_view> {
    const char* raw = getenv(name);
    if (raw == nullptr || *raw == '\0') return std::nullopt;
    return std::string_view(raw);
  };
  if (auto name = text(kKernelNameVariable)) {
    StatusOr<NameMatcher> matcher = NameMatcher::Parse(*name);
    if (matcher.ok()) {
      profile.filter.name = *matcher;
    } else {
      problems.push_back(matcher.status().message());
    }
  }
  if (auto source = text(kProfileSourceVariable)) {
    if (*source == "1") {
      profile.source_counters = true;
    } else if (*source != "0") {
      problems.push_back(std::string(kProfileSourceVariable) + " must be 0 or 1");
    }
  }
  if (auto cache = text(kCacheControlVariable)) {
    if (*cache == "all" || *cache == "none") {
      profile.flush_caches = *cache == "all";
    } else {
      problems.push_back(std::string(kCacheControlVariable) + "='" + std::string(*cache) +
                         "' is not all or none");
    }
  }
  if (auto no_restore = text(kReplayNoRestoreVariable)) {
    if (*no_restore == "1") {
      profile.restore_memory = false;
    } else if (*no_restore != "0") {
      problems.push_back(std::string(kReplayNoRestoreVariable) + " must be 0 or 1");
    }
  }
  if (auto base = text(kKernelNameBaseVariable)) {
    StatusOr<NameBase> parsed = ParseNameBase(*base);
    if (parsed.ok()) {
      profile.filter.name_base = *parsed;
    } else {
      problems.push_back(parsed.status().message());
    }
  }
  auto count = [&](const char* name, auto& field) {
    auto raw = text(name);
    if (!raw) return;
    std::uint64_t value = 0;
    auto [ptr, error] = std::from_chars(raw->data(), raw->data() + raw->size(), value);
    if (error != std::errc() || ptr != raw->data() + raw->size()) {
      problems.push_back(std::string(name) + "='" + std::string(*raw) + "' is not a count");
      return;
    }
    field = value;
  };
  count(kLaunchSkipVariable, profile.filter.launch_skip);
  count(kLaunchCountVariable, profile.filter.launch_count);
  if (auto id = text(kKernelIdVariable)) {
    StatusOr<KernelIdFilter> parsed = ParseKernelId(*id);
    if (parsed.ok()) {
      profile.filter.kernel_id = *parsed;
    } else {
      problems.push_back(parsed.status().message());
    }
  }
  if (auto devices = text(kDevicesVariable)) {
    std::set<std::uint32_t> ids;
    for (const std::string& item : SplitCommaList(*devices)) {
      std::optional<unsigned> id = ParseUnsigned(item);
      if (!id) {
        problems.push_back(std::string(kDevicesVariable) + "='" + std::string(*devices) +
                           "' is not a list of device ordinals");
        break;
      }
      ids.insert(*id);
    }
    profile.filter.devices = ids;
  }
  if (auto mode = text(kReplayModeVariable)) {
    if (*mode == "kernel") {
      profile.replay_mode = model::ReplayMode::kKernel;
    } else if (*mode == "application") {
      profile.replay_mode = model::ReplayMode::kApplication;
    } else if (*mode == "app-range") {
      profile.replay_mode = model::ReplayMode::kAppRange;
    } else {
      problems.push_back(std::string(kReplayModeVariable) + "='" + std::string(*mode) +
                         "' is not kernel, application or app-range");
    }
  }
  if (auto specs = text(kNvtxIncludeVariable)) {
    std::vector<std::string> lines;
    std::string_view rest = *specs;
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      if (end != 0) lines.emplace_back(rest.substr(0, end));
      if (end == std::string_view::npos) break;
      rest.remove_prefix(end + 1);
    }
    StatusOr<NvtxRangeFilter> filter = NvtxRangeFilter::Parse(lines);
    if (filter.ok()) {
      profile.nvtx_include = std::move(*filter);
    } else {
      problems.push_back(std::string(kNvtxIncludeVariable) + ": " + filter.status().message());
    }
  }
  if (profile.replay_mode == model::ReplayMode::kApplication ||
      profile.replay_mode == model::ReplayMode::kAppRange) {
    auto pass = text(kReplayPassVariable);
    auto passes = text(kReplayPassesVariable);
    auto dir = text(kReplayDirVariable);
    std::optional<unsigned> pass_number = pass ? ParseUnsigned(*pass) : std::nullopt;
    std::optional<unsigned> pass_count = passes ? ParseUnsigned(*passes) : std::nullopt;
    if (!pass_number || !pass_count || !dir || *pass_number >= *pass_count) {
      problems.push_back(std::string("application replay needs ") + kReplayPassVariable + " < " +
                         kReplayPassesVariable + " and " + kReplayDirVariable);
    } else {
      profile.app_pass = *pass_number;
      profile.app_passes = *pass_count;
      profile.app_dir = std::string(*dir);
    }
  }
  // The prebuilt config image: a problem here only costs time (the image is built again).
  auto file = text(kProfileConfigFileVariable);
  auto chip = text(kProfileChipVariable);
  auto passes = text(kProfilePassesVariable);
  if (file && chip && passes) {
    std::ifstream in{std::string(*file), std::ios::binary};
    std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in),
                                    std::istreambuf_iterator<char>()};
    std::optional<unsigned> pass_count = ParseUnsigned(*passes);
    if (!bytes.empty() && pass_count) {
      profile.prebuilt_config = std::move(bytes);
      profile.prebuilt_chip = std::string(*chip);
      profile.prebuilt_passes = *pass_count;
    }
  }
  if (!problems.empty()) {
    for (const std::string& problem : problems) {
      config.warnings.push_back(problem + "; no kernel is profiled (tracing goes on)");
    }
    return;
  }
  profile.metrics = std::move(names);
}

// An unknown set or a frequency out of range: a warning and no sampling / the default rate (the
// CLI checked both, so only a hand-set environment gets here).
void ReadGpuMetricsConfig(const EnvironmentLookup& getenv, InjectionConfig& config) {
  const char* set = getenv(kGpuMetricsSetVariable);
  if (set == nullptr || *set == '\0') return;
  if (FindGpuMetricSet(set) == nullptr) {
    config.warnings.push_back(std::string(kGpuMetricsSetVariable) + "='" + set +
                              "' is not a GPU metric set; sampling no GPU metrics");
    return;
  }
  config.gpu_metrics.set_name = set;
  if (const char* record = getenv(kPmSamplingRecordVariable)) config.gpu_metrics.record_path = record;
  config.gpu_metrics.frequency_hz = kDefaultGpuMetricsFrequencyHz;
  const char* frequency = getenv(kGpuMetricsFrequencyVariable);
  if (frequency == nullptr || *frequency == '\0') return;
  std::optional<unsigned> hz = ParseUnsigned(frequency);
  if (hz && *hz >= kMinGpuMetricsFrequencyHz && *hz <= kMaxGpuMetricsFrequencyHz) {
    config.gpu_metrics.frequency_hz = *hz;
  } else {
    config.warnings.push_back(std::string(kGpuMetricsFrequencyVariable) + "='" + frequency +
                              "' is not a rate from " + std::to_string(kMinGpuMetricsFrequencyHz) +
                              " to " + std::to_string(kMaxGpuMetricsFrequencyHz) + " Hz; using " +
                              std::to_string(kDefaultGpuMetricsFrequencyHz));
  }
}

// GPUSCOPE_TRACE, _API_CAPTURE, _CUDA_GRAPH_TRACE (util/trace_scope.h): a bad value (set by
// hand) keeps that part's default, with a warning.
void ReadTraceScope(const EnvironmentLookup& getenv, InjectionConfig& config) {
  auto read = [&](const char* name, auto parse, auto apply) {
    const char* raw = getenv(name);
    if (raw == nullptr || *raw == '\0') return;
    auto parsed = parse(raw);
    if (parsed.ok()) {
      apply(*parsed);
    } else {
      config.warnings.push_back(std::string(name) + ": " + parsed.status().message() +
                                "; using the default");
    }
  };
  read(kTraceVariable, [&](const char* raw) { return ParseTraceList(raw, config.trace); },
       [&](const TraceScope& scope) { config.trace = scope; });
  read(kApiCaptureVariable, ParseApiCapture,
       [&](ApiCapture capture) { config.trace.api_capture = capture; });
  read(kCudaGraphTraceVariable, ParseCudaGraphTrace,
       [&](CudaGraphTrace trace) { config.trace.cuda_graph_trace = trace; });
}

}  // namespace

InjectionConfig ReadInjectionConfig(const EnvironmentLookup& getenv) {
  InjectionConfig config;
  if (const char* pattern = getenv(kReportVariable); pattern != nullptr && *pattern != '\0') {
    config.report_pattern = pattern;
  }
  if (const char* root = getenv(kRootPidVariable); root != nullptr && *root != '\0') {
    std::optional<unsigned> pid = ParseUnsigned(root);
    if (pid && *pid > 0) {
      config.root_pid = *pid;
    } else {
      config.warnings.push_back(std::string(kRootPidVariable) + "='" + root +
                                "' is not a process id; treating this process as the root");
    }
  }
  ReadBool(getenv, kFollowChildrenVariable, config.follow_children, config.warnings);
  ReadBool(getenv, kForceOverwriteVariable, config.force_overwrite, config.warnings);
  if (const char* permissions = getenv(kReportPermissionsVariable);
      permissions != nullptr && *permissions != '\0') {
    if (std::optional<ReportPermissions> parsed = ParseReportPermissions(permissions)) {
      config.report_permissions = *parsed;
    } else {
      config.warnings.push_back(std::string(kReportPermissionsVariable) + "='" + permissions +
                                "' is not private or umask; using private");
    }
  }
  ReadBool(getenv, kProfileFromStartVariable, config.profile_from_start, config.warnings);
  ReadBool(getenv, kDebugVariable, config.debug, config.warnings);
  ReadBool(getenv, kQuietVariable, config.quiet, config.warnings);
  ReadBool(getenv, kBacktraceVariable, config.backtrace, config.warnings);
  if (const char* flush = getenv(kFlushMsVariable); flush != nullptr && *flush != '\0') {
    std::optional<unsigned> ms = ParseUnsigned(flush);
    if (ms && *ms >= 1 && *ms <= kMaxFlushMs) {
      config.flush_ms = *ms;
    } else {
      config.warnings.push_back(std::string(kFlushMsVariable) + "='" + flush +
                                "' is not a number of milliseconds from 1 to " +
                                std::to_string(kMaxFlushMs) + "; using " +
                                std::to_string(kDefaultFlushMs));
    }
  }
  if (const char* manifest = getenv(kManifestVariable); manifest != nullptr) {
    config.manifest_path = manifest;
  }
  ReadTraceScope(getenv, config);
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
