#include "util/kernel_filter.h"

#include <algorithm>
#include <charconv>

#include "util/demangle.h"

namespace gpuscope {
namespace {

constexpr std::string_view kRegexPrefix = "regex:";

std::optional<std::uint32_t> ParseU32(std::string_view text) {
  std::uint32_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

StatusOr<NameBase> ParseNameBase(std::string_view text) {
  if (text == "function") return NameBase::kFunction;
  if (text == "demangled") return NameBase::kDemangled;
  if (text == "mangled") return NameBase::kMangled;
  return Status::Error("--kernel-name-base must be function, demangled or mangled, not '" +
                       std::string(text) + "'");
}

const char* NameBaseName(NameBase base) {
  switch (base) {
    case NameBase::kFunction:
      return "function";
    case NameBase::kDemangled:
      return "demangled";
    case NameBase::kMangled:
      return "mangled";
  }
  return "function";
}

StatusOr<NameMatcher> NameMatcher::Parse(std::string_view text) {
  NameMatcher matcher;
  matcher.text_ = std::string(text);
  if (text.starts_with(kRegexPrefix)) {
    std::string expression(text.substr(kRegexPrefix.size()));
    try {
      matcher.regex_ = std::make_shared<const std::regex>(expression, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      return Status::Error("the kernel name expression '" + expression +
                           "' is not a valid regular expression (" + error.what() + ")");
    }
  } else {
    matcher.exact_ = std::string(text);
  }
  return matcher;
}

bool NameMatcher::Matches(std::string_view name) const {
  if (text_.empty()) return true;
  if (regex_) return std::regex_search(name.begin(), name.end(), *regex_);
  return name == exact_;
}

StatusOr<KernelIdFilter> ParseKernelId(std::string_view text) {
  // context:stream:name:invocation; the name may itself be "regex:<expr with ':'>", so the
  // first two fields and the last one are split off and the middle is the name.
  const std::string whole(text);
  auto bad = [&](const std::string& why) {
    return Status::Error("--kernel-id '" + whole + "' " + why +
                         " (expected context:stream:name:invocation, empty fields match any)");
  };
  const std::size_t first = text.find(':');
  if (first == std::string_view::npos) return bad("has no ':'");
  const std::size_t second = text.find(':', first + 1);
  const std::size_t last = text.rfind(':');
  if (second == std::string_view::npos || last <= second) return bad("has too few fields");
  KernelIdFilter filter;
  std::string_view context = text.substr(0, first);
  std::string_view stream = text.substr(first + 1, second - first - 1);
  std::string_view name = text.substr(second + 1, last - second - 1);
  std::string_view invocation = text.substr(last + 1);
  if (!context.empty()) {
    filter.context_id = ParseU32(context);
    if (!filter.context_id) return bad("has a context that is not a number");
  }
  if (!stream.empty()) {
    filter.stream_id = ParseU32(stream);
    if (!filter.stream_id) return bad("has a stream that is not a number");
  }
  if (!invocation.empty()) {
    filter.invocation = ParseU32(invocation);
    if (!filter.invocation) return bad("has an invocation that is not a number");
  }
  StatusOr<NameMatcher> matcher = NameMatcher::Parse(name);
  if (!matcher.ok()) return matcher.status();
  filter.name = std::move(*matcher);
  return filter;
}

std::string KernelIdText(const KernelIdFilter& filter) {
  auto number = [](const std::optional<std::uint32_t>& field) {
    return field ? std::to_string(*field) : std::string();
  };
  return number(filter.context_id) + ":" + number(filter.stream_id) + ":" + filter.name.text() +
         ":" + number(filter.invocation);
}

std::string NameInBase(std::string_view mangled, NameBase base) {
  switch (base) {
    case NameBase::kMangled:
      return std::string(mangled);
    case NameBase::kDemangled:
      return Demangle(mangled);
    case NameBase::kFunction:
      return FunctionBaseName(Demangle(mangled));
  }
  return std::string(mangled);
}

KernelSelector::KernelSelector(KernelFilterSpec spec) : spec_(std::move(spec)) {}

KernelSelector::NameState& KernelSelector::StateOf(std::string_view mangled_name) {
  auto it = names_.find(std::string(mangled_name));
  if (it == names_.end()) {
    NameState state;
    state.base_name = NameInBase(mangled_name, spec_.name_base);
    it = names_.emplace(std::string(mangled_name), std::move(state)).first;
  }
  return it->second;
}

bool MatchesFilter(const KernelFilterSpec& spec, std::string_view base_name,
                   const LaunchCandidate& launch, std::uint32_t invocation) {
  if (spec.devices && spec.devices->count(launch.device_id) == 0) return false;
  if (!spec.name.Matches(base_name)) return false;
  if (spec.kernel_id) {
    const KernelIdFilter& id = *spec.kernel_id;
    if (id.context_id && *id.context_id != launch.context_id) return false;
    // A launch whose stream we could not read does not match a filter that names one.
    if (id.stream_id && (!launch.stream_id || *id.stream_id != *launch.stream_id)) return false;
    if (!id.name.Matches(base_name)) return false;
    if (id.invocation && *id.invocation != invocation) return false;
  }
  return true;
}

bool WithinSkipAndCount(const KernelFilterSpec& spec, std::uint64_t matching) {
  if (matching < spec.launch_skip) return false;
  return !spec.launch_count || matching - spec.launch_skip < *spec.launch_count;
}

LaunchDecision KernelSelector::Decide(const LaunchCandidate& launch) {
  std::lock_guard<std::mutex> lock(mutex_);
  NameState& state = StateOf(launch.mangled_name);
  LaunchDecision decision;
  decision.invocation = state.launches++;
  if (!MatchesFilter(spec_, state.base_name, launch, decision.invocation)) return decision;
  if (!WithinSkipAndCount(spec_, matching_launches_++)) return decision;
  decision.profile = true;
  decision.profile_index = profiled_++;
  return decision;
}

bool KernelSelector::Exhausted() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return spec_.launch_count && profiled_ >= *spec_.launch_count;
}

std::uint32_t KernelSelector::profiled() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return profiled_;
}

std::vector<std::string> KernelSelector::SeenNames(std::size_t limit) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> names;
  for (const auto& [mangled, state] : names_) names.push_back(state.base_name);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  if (names.size() > limit) names.resize(limit);
  return names;
}

}  // namespace gpuscope
