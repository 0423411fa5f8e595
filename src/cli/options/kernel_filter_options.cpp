#include "cli/options/kernel_filter_options.h"

#include <charconv>
#include <set>

#include "cli/options/option_targets.h"
#include "util/comma_list.h"

namespace gpuscope::cli {
namespace {

StatusOr<std::uint64_t> ParseCount(const ParsedOption& option) {
  std::uint64_t value = 0;
  const std::string& text = option.value;
  auto [ptr, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || ptr != text.data() + text.size()) {
    return Status::Error("option '" + option.spelling + "' expects a count, not '" + text + "'");
  }
  return value;
}

StatusOr<std::set<std::uint32_t>> ParseDevices(const std::string& text) {
  std::set<std::uint32_t> devices;
  for (const std::string& item : SplitCommaList(text)) {
    std::uint32_t id = 0;
    auto [ptr, error] = std::from_chars(item.data(), item.data() + item.size(), id);
    if (item.empty() || error != std::errc() || ptr != item.data() + item.size()) {
      return Status::Error("option '--devices' expects device ordinals like 0,1, not '" + text +
                           "'");
    }
    devices.insert(id);
  }
  if (devices.empty()) {
    return Status::Error("option '--devices' expects device ordinals like 0,1, not '" + text + "'");
  }
  return devices;
}

}  // namespace

std::vector<OptionSpec> KernelFilterOptionSpecs(std::string_view verb, KernelFilterText& filter) {
  // The help lines live as long as the process: the specs refer to them.
  static const std::string profile_only = "profile only kernels with this name (in --kernel-name-base)";
  static const std::string print_only = "print only kernels with this name (in --kernel-name-base)";
  static const std::string profile_count = "profile at most N matching launches";
  static const std::string print_count = "print at most N matching launches";
  static const std::string profile_id = "profile one launch (empty fields match any; name may be regex:expr)";
  static const std::string print_id = "print one launch (empty fields match any; name may be regex:expr)";
  static const std::string profile_devices = "profile only launches on these devices";
  static const std::string print_devices = "print only launches on these devices";
  const bool profile = verb == "profile";
  // Each filter keeps its text once checked, and says that a filter was given.
  auto checked_text = [&filter](std::string& field, auto check) {
    return Marking(filter.any_given, [&field, check](const ParsedOption& option) {
      GPUSCOPE_RETURN_IF_ERROR(check(option.value).status());
      field = option.value;
      return Status();
    });
  };
  auto count = [&filter](std::optional<std::uint64_t>& field, std::uint64_t least) {
    return Marking(filter.any_given, [&field, least](const ParsedOption& option) {
      StatusOr<std::uint64_t> n = ParseCount(option);
      if (!n.ok()) return n.status();
      if (*n < least) {
        return Status::Error("option '" + option.spelling + "' must be at least " +
                             std::to_string(least));
      }
      field = *n;
      return Status();
    });
  };
  return {
      {"kernel-name", 'k', "name|regex:expr", profile ? profile_only : print_only,
       checked_text(filter.kernel_name, NameMatcher::Parse)},
      {"kernel-name-base", 0, "function|demangled|mangled",
       "the name -k and --kernel-id match (default function)",
       checked_text(filter.kernel_name_base, ParseNameBase)},
      {"launch-skip", 's', "N", "skip the first N matching launches", count(filter.launch_skip, 0)},
      {"launch-count", 'c', "N", profile ? profile_count : print_count,
       count(filter.launch_count, 1)},
      {"kernel-id", 0, "ctx:stream:name:invocation", profile ? profile_id : print_id,
       checked_text(filter.kernel_id, ParseKernelId)},
      {"devices", 0, "0,1,...", profile ? profile_devices : print_devices,
       checked_text(filter.devices, ParseDevices)},
  };
}

StatusOr<KernelFilterSpec> ToKernelFilterSpec(const KernelFilterText& filter) {
  KernelFilterSpec spec;
  StatusOr<NameMatcher> name = NameMatcher::Parse(filter.kernel_name);
  if (!name.ok()) return name.status();
  spec.name = std::move(*name);
  StatusOr<NameBase> base = ParseNameBase(filter.kernel_name_base);
  if (!base.ok()) return base.status();
  spec.name_base = *base;
  spec.launch_skip = filter.launch_skip.value_or(0);
  spec.launch_count = filter.launch_count;
  if (!filter.kernel_id.empty()) {
    StatusOr<KernelIdFilter> id = ParseKernelId(filter.kernel_id);
    if (!id.ok()) return id.status();
    spec.kernel_id = std::move(*id);
  }
  if (!filter.devices.empty()) {
    StatusOr<std::set<std::uint32_t>> devices = ParseDevices(filter.devices);
    if (!devices.ok()) return devices.status();
    spec.devices = std::move(*devices);
  }
  return spec;
}

}  // namespace gpuscope::cli
