#include "contract/profile_request.h"

#include <charconv>
#include <set>

#include "contract/environment_variables.h"
#include "util/comma_list.h"

namespace gpuscope::contract {
namespace {

// --nvtx-include specs travel one per line (a name may hold commas).
std::string JoinLines(const std::vector<std::string>& lines) {
  std::string joined;
  for (const std::string& line : lines) joined += (joined.empty() ? "" : "\n") + line;
  return joined;
}

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    if (end != 0) lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

std::string DeviceList(const std::set<std::uint32_t>& devices) {
  std::vector<std::string> ordinals;
  for (std::uint32_t device : devices) ordinals.push_back(std::to_string(device));
  return JoinCommaList(ordinals);
}

// Reads the profiling variables into a request, collecting one line per bad value.
class ProfileVariableReader {
 public:
  ProfileVariableReader(const EnvironmentLookup& getenv, ProfileRequest& request,
                        std::vector<std::string>& problems)
      : getenv_(getenv), request_(request), problems_(problems) {}

  void Read() {
    KernelFilterSpec& filter = request_.filter;
    Parsed(kKernelNameVariable, NameMatcher::Parse, filter.name);
    Flag(kProfileSourceVariable, request_.source_counters, /*value_of_one=*/true);
    Spelled(kCacheControlVariable, kCacheControlSpellings, request_.cache_control);
    Flag(kReplayNoRestoreVariable, request_.restore_memory, /*value_of_one=*/false);
    Parsed(kKernelNameBaseVariable, ParseNameBase, filter.name_base);
    Count(kLaunchSkipVariable, filter.launch_skip);
    Count(kLaunchCountVariable, filter.launch_count);
    Parsed(kKernelIdVariable, ParseKernelId, filter.kernel_id);
    Devices();
    Spelled(kReplayModeVariable, kReplayModeSpellings, request_.replay_mode);
    NvtxInclude();
    if (RunsPerPass(request_.replay_mode)) AppReplayPass();
    ConfigImage();
  }

 private:
  std::optional<std::string_view> Given(const char* name) const { return GivenValue(getenv_, name); }
  void Problem(const char* name, std::string_view value, const std::string& why) {
    problems_.push_back(std::string(name) + "='" + std::string(value) + "' " + why);
  }

  // A value util parses (its message says what is wrong; the variable is named before it).
  template <typename Parse, typename Field>
  void Parsed(const char* name, Parse parse, Field& field) {
    std::optional<std::string_view> raw = Given(name);
    if (!raw) return;
    auto parsed = parse(*raw);
    if (parsed.ok()) {
      field = std::move(*parsed);
    } else {
      problems_.push_back(std::string(name) + ": " + parsed.status().message());
    }
  }

  // Written by the launcher as "1" or "0" only (FlagValue); "1" sets `field` to `value_of_one`.
  void Flag(const char* name, bool& field, bool value_of_one) {
    std::optional<std::string_view> raw = Given(name);
    if (!raw) return;
    if (*raw == "1" || *raw == "0") {
      field = (*raw == "1") == value_of_one;
    } else {
      problems_.push_back(std::string(name) + " must be 0 or 1");
    }
  }

  template <typename T, std::size_t N>
  void Spelled(const char* name, const Spelling<T> (&spellings)[N], T& field) {
    std::optional<std::string_view> raw = Given(name);
    if (!raw) return;
    if (std::optional<T> value = ValueSpelled(spellings, *raw)) {
      field = *value;
    } else {
      Problem(name, *raw, "is not " + SpellingList(spellings));
    }
  }

  template <typename Field>
  void Count(const char* name, Field& field) {
    std::optional<std::string_view> raw = Given(name);
    if (!raw) return;
    std::uint64_t value = 0;
    auto [ptr, error] = std::from_chars(raw->data(), raw->data() + raw->size(), value);
    if (error != std::errc() || ptr != raw->data() + raw->size()) {
      Problem(name, *raw, "is not a count");
      return;
    }
    field = value;
  }

  void Devices() {
    std::optional<std::string_view> raw = Given(kDevicesVariable);
    if (!raw) return;
    std::set<std::uint32_t> ids;
    for (const std::string& item : SplitCommaList(*raw)) {
      std::optional<unsigned> id = ParseUnsigned(item);
      if (!id) {
        Problem(kDevicesVariable, *raw, "is not a list of device ordinals");
        break;
      }
      ids.insert(*id);
    }
    request_.filter.devices = ids;
  }

  void NvtxInclude() {
    std::optional<std::string_view> specs = Given(kNvtxIncludeVariable);
    if (!specs) return;
    StatusOr<NvtxRangeFilter> filter = NvtxRangeFilter::Parse(SplitLines(*specs));
    if (filter.ok()) {
      request_.nvtx_include = std::move(*filter);
    } else {
      problems_.push_back(std::string(kNvtxIncludeVariable) + ": " + filter.status().message());
    }
  }

  void AppReplayPass() {
    std::optional<std::string_view> pass = Given(kReplayPassVariable);
    std::optional<std::string_view> passes = Given(kReplayPassesVariable);
    std::optional<std::string_view> dir = Given(kReplayDirVariable);
    std::optional<unsigned> pass_number = pass ? ParseUnsigned(*pass) : std::nullopt;
    std::optional<unsigned> pass_count = passes ? ParseUnsigned(*passes) : std::nullopt;
    if (!pass_number || !pass_count || !dir || *pass_number >= *pass_count) {
      problems_.push_back(std::string("application replay needs ") + kReplayPassVariable + " < " +
                          kReplayPassesVariable + " and " + kReplayDirVariable);
      return;
    }
    request_.app_pass = *pass_number;
    request_.app_passes = *pass_count;
    request_.app_dir = std::string(*dir);
  }

  void ConfigImage() {
    std::optional<std::string_view> file = Given(kProfileConfigFileVariable);
    std::optional<std::string_view> chip = Given(kProfileChipVariable);
    std::optional<std::string_view> passes = Given(kProfilePassesVariable);
    std::optional<unsigned> pass_count = passes ? ParseUnsigned(*passes) : std::nullopt;
    if (!file || !chip || !pass_count) return;
    request_.config_image_file = std::string(*file);
    request_.config_image_chip = std::string(*chip);
    request_.config_image_passes = *pass_count;
  }

  const EnvironmentLookup& getenv_;
  ProfileRequest& request_;
  std::vector<std::string>& problems_;
};

}  // namespace

VariableValues ProfileRequest::ToEnvironment() const {
  VariableValues values;
  if (!enabled()) {
    for (const char* name : kProfileVariables) values.emplace_back(name, "");
    return values;
  }
  auto number = [](auto value) { return std::to_string(value); };
  const bool image = !config_image_file.empty();
  const bool per_pass = RunsPerPass(replay_mode);
  values = {
      {kProfileMetricsVariable, JoinCommaList(metrics)},
      {kKernelNameVariable, filter.name.text()},
      {kKernelNameBaseVariable, NameBaseName(filter.name_base)},
      {kLaunchSkipVariable, filter.launch_skip != 0 ? number(filter.launch_skip) : ""},
      {kLaunchCountVariable, filter.launch_count ? number(*filter.launch_count) : ""},
      {kKernelIdVariable, filter.kernel_id ? KernelIdText(*filter.kernel_id) : ""},
      {kDevicesVariable, filter.devices ? DeviceList(*filter.devices) : ""},
      {kReplayModeVariable, std::string(ReplayModeName(replay_mode))},
      {kProfileConfigFileVariable, image ? config_image_file : ""},
      {kProfileChipVariable, image ? config_image_chip : ""},
      {kProfilePassesVariable, image ? number(config_image_passes) : ""},
      {kReplayPassVariable, per_pass ? number(app_pass) : ""},
      {kReplayPassesVariable, per_pass ? number(app_passes) : ""},
      {kReplayDirVariable, per_pass ? app_dir : ""},
      {kProfileSourceVariable, FlagValue(source_counters)},
      {kCacheControlVariable, std::string(SpellingOf(kCacheControlSpellings, cache_control))},
      {kReplayNoRestoreVariable, FlagValue(!restore_memory)},
      {kNvtxIncludeVariable, JoinLines(nvtx_include.texts())},
  };
  return values;
}

RequestReading<ProfileRequest> ProfileRequest::FromEnvironment(const EnvironmentLookup& getenv) {
  RequestReading<ProfileRequest> reading;
  std::optional<std::string_view> metrics = GivenValue(getenv, kProfileMetricsVariable);
  if (!metrics) return reading;
  ProfileRequest request;
  ProfileVariableReader(getenv, request, reading.problems).Read();
  if (!reading.problems.empty()) return reading;
  request.metrics = SplitCommaList(*metrics);
  reading.request = std::move(request);
  return reading;
}

}  // namespace gpuscope::contract
