#include "inject/config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <iterator>
#include <set>
#include <string_view>

#include "util/comma_list.h"

namespace gpuscope::inject {
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
  const char* metrics = getenv("GPUSCOPE_PROFILE_METRICS");
  if (metrics == nullptr || *metrics == '\0') return;
  std::vector<std::string> names = SplitCommaList(metrics);
  std::vector<std::string> problems;
  auto text = [&](const char* name) -> std::optional<std::string_view> {
    const char* raw = getenv(name);
    if (raw == nullptr || *raw == '\0') return std::nullopt;
    return std::string_view(raw);
  };
  if (auto name = text("GPUSCOPE_KERNEL_NAME")) {
    StatusOr<NameMatcher> matcher = NameMatcher::Parse(*name);
    if (matcher.ok()) {
      profile.filter.name = *matcher;
    } else {
      problems.push_back(matcher.status().message());
    }
  }
  if (auto base = text("GPUSCOPE_KERNEL_NAME_BASE")) {
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
  count("GPUSCOPE_LAUNCH_SKIP", profile.filter.launch_skip);
  count("GPUSCOPE_LAUNCH_COUNT", profile.filter.launch_count);
  if (auto id = text("GPUSCOPE_KERNEL_ID")) {
    StatusOr<KernelIdFilter> parsed = ParseKernelId(*id);
    if (parsed.ok()) {
      profile.filter.kernel_id = *parsed;
    } else {
      problems.push_back(parsed.status().message());
    }
  }
  if (auto devices = text("GPUSCOPE_DEVICES")) {
    std::set<std::uint32_t> ids;
    for (const std::string& item : SplitCommaList(*devices)) {
      std::optional<unsigned> id = ParseUnsigned(item);
      if (!id) {
        problems.push_back("GPUSCOPE_DEVICES='" + std::string(*devices) +
                           "' is not a list of device ordinals");
        break;
      }
      ids.insert(*id);
    }
    profile.filter.devices = ids;
  }
  if (auto mode = text("GPUSCOPE_REPLAY_MODE")) {
    if (*mode == "kernel") {
      profile.replay_mode = model::ReplayMode::kKernel;
    } else if (*mode == "application") {
      profile.replay_mode = model::ReplayMode::kApplication;
    } else {
      problems.push_back("GPUSCOPE_REPLAY_MODE='" + std::string(*mode) +
                         "' is not kernel or application");
    }
  }
  if (profile.replay_mode == model::ReplayMode::kApplication) {
    auto pass = text("GPUSCOPE_REPLAY_PASS");
    auto passes = text("GPUSCOPE_REPLAY_PASSES");
    auto dir = text("GPUSCOPE_REPLAY_DIR");
    std::optional<unsigned> pass_number = pass ? ParseUnsigned(*pass) : std::nullopt;
    std::optional<unsigned> pass_count = passes ? ParseUnsigned(*passes) : std::nullopt;
    if (!pass_number || !pass_count || !dir || *pass_number >= *pass_count) {
      problems.push_back(
          "application replay needs GPUSCOPE_REPLAY_PASS < GPUSCOPE_REPLAY_PASSES and "
          "GPUSCOPE_REPLAY_DIR");
    } else {
      profile.app_pass = *pass_number;
      profile.app_passes = *pass_count;
      profile.app_dir = std::string(*dir);
    }
  }
  // The prebuilt config image: a problem here only costs time (the image is built again).
  auto file = text("GPUSCOPE_PROFILE_CONFIG_FILE");
  auto chip = text("GPUSCOPE_PROFILE_CHIP");
  auto passes = text("GPUSCOPE_PROFILE_PASSES");
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

}  // namespace

InjectionConfig ReadInjectionConfig(const EnvironmentLookup& getenv) {
  InjectionConfig config;
  if (const char* pattern = getenv("GPUSCOPE_REPORT"); pattern != nullptr && *pattern != '\0') {
    config.report_pattern = pattern;
  }
  if (const char* root = getenv("GPUSCOPE_ROOT_PID"); root != nullptr && *root != '\0') {
    std::optional<unsigned> pid = ParseUnsigned(root);
    if (pid && *pid > 0) {
      config.root_pid = *pid;
    } else {
      config.warnings.push_back(std::string("GPUSCOPE_ROOT_PID='") + root +
                                "' is not a process id; treating this process as the root");
    }
  }
  ReadBool(getenv, "GPUSCOPE_FOLLOW_CHILDREN", config.follow_children, config.warnings);
  ReadBool(getenv, "GPUSCOPE_FORCE_OVERWRITE", config.force_overwrite, config.warnings);
  ReadBool(getenv, "GPUSCOPE_PROFILE_FROM_START", config.profile_from_start, config.warnings);
  ReadBool(getenv, "GPUSCOPE_DEBUG", config.debug, config.warnings);
  ReadBool(getenv, "GPUSCOPE_QUIET", config.quiet, config.warnings);
  if (const char* flush = getenv("GPUSCOPE_FLUSH_MS"); flush != nullptr && *flush != '\0') {
    std::optional<unsigned> ms = ParseUnsigned(flush);
    if (ms && *ms >= 1 && *ms <= kMaxFlushMs) {
      config.flush_ms = *ms;
    } else {
      config.warnings.push_back(std::string("GPUSCOPE_FLUSH_MS='") + flush +
                                "' is not a number of milliseconds from 1 to " +
                                std::to_string(kMaxFlushMs) + "; using " +
                                std::to_string(kDefaultFlushMs));
    }
  }
  if (const char* manifest = getenv("GPUSCOPE_MANIFEST"); manifest != nullptr) {
    config.manifest_path = manifest;
  }
  ReadProfileConfig(getenv, config);
  return config;
}

bool IsRootProcess(const InjectionConfig& config, unsigned pid) {
  return !config.root_pid.has_value() || *config.root_pid == pid;
}

bool ShouldTrace(const InjectionConfig& config, unsigned pid) {
  return config.follow_children || IsRootProcess(config, pid);
}

}  // namespace gpuscope::inject
