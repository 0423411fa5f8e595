#include "inject/config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string_view>

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
  return config;
}

bool IsRootProcess(const InjectionConfig& config, unsigned pid) {
  return !config.root_pid.has_value() || *config.root_pid == pid;
}

bool ShouldTrace(const InjectionConfig& config, unsigned pid) {
  return config.follow_children || IsRootProcess(config, pid);
}

}  // namespace gpuscope::inject
