// Which kernel launches `gpuscope profile` measures: Nsight Compute's filters.
//
//   -k/--kernel-name <name>|regex:<expr>   matched against the name base below
//   --kernel-name-base function|demangled|mangled   (default function: "saxpy")
//   -s/--launch-skip N, -c/--launch-count N         count matching launches only
//   --kernel-id context:stream:name:invocation      any field may be empty (= any); the
//                                                   name may be regex:<expr>
//   --devices 0,2                                   device ordinals
//
// The filter travels from the CLI to the injection in environment variables
// (contract/profile_request.h); both sides parse it with these functions, so that a bad
// expression is rejected before the program starts.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "util/status.h"

namespace gpuscope {

enum class NameBase { kFunction, kDemangled, kMangled };

StatusOr<NameBase> ParseNameBase(std::string_view text);
const char* NameBaseName(NameBase base);

// "name" (exact) or "regex:<expr>" (std::regex_search, ECMAScript). Empty matches all.
class NameMatcher {
 public:
  static StatusOr<NameMatcher> Parse(std::string_view text);
  bool Matches(std::string_view name) const;
  bool matches_all() const { return text_.empty(); }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::string exact_;
  std::shared_ptr<const std::regex> regex_;  // shared: matchers are copied, regexes are not cheap
};

struct KernelIdFilter {
  std::optional<std::uint32_t> context_id;
  std::optional<std::uint32_t> stream_id;
  NameMatcher name;
  std::optional<std::uint32_t> invocation;  // the n-th launch (from 0) of the matched name
};
// "context:stream:name:invocation"; the name may contain ':' only inside "regex:...".
StatusOr<KernelIdFilter> ParseKernelId(std::string_view text);
// The text ParseKernelId reads back as `filter` (unset fields empty).
std::string KernelIdText(const KernelIdFilter& filter);

struct KernelFilterSpec {
  NameMatcher name;
  NameBase name_base = NameBase::kFunction;
  std::uint64_t launch_skip = 0;
  std::optional<std::uint64_t> launch_count;
  std::optional<KernelIdFilter> kernel_id;
  std::optional<std::set<std::uint32_t>> devices;
};

// One kernel launch as the launch callback sees it, before it runs.
struct LaunchCandidate {
  std::string_view mangled_name;
  std::uint32_t context_id = 0;
  std::optional<std::uint32_t> stream_id;  // unknown for launch calls we cannot read
  std::uint32_t device_id = 0;
};

struct LaunchDecision {
  bool profile = false;
  std::uint32_t invocation = 0;     // n-th launch of this name in the process, from 0
  std::uint32_t profile_index = 0;  // valid when `profile`
};

// Whether a launch passes every filter of `spec` but -s/-c: its name in spec.name_base is
// `base_name`, and it is the `invocation`-th launch (from 0) of its kernel name.
bool MatchesFilter(const KernelFilterSpec& spec, std::string_view base_name,
                   const LaunchCandidate& launch, std::uint32_t invocation);
// Whether the `matching`-th launch (from 0) that passed MatchesFilter is within -s and -c.
bool WithinSkipAndCount(const KernelFilterSpec& spec, std::uint64_t matching);

// Decides, launch by launch, which ones are profiled. Thread-safe (launches come from any
// thread of the program).
class KernelSelector {
 public:
  explicit KernelSelector(KernelFilterSpec spec);

  LaunchDecision Decide(const LaunchCandidate& launch);

  // Whether no launch can be selected any more (--launch-count reached): the launch
  // callbacks can then skip the work of naming kernels.
  bool Exhausted() const;
  std::uint32_t profiled() const;
  // Distinct kernel names seen (in the configured name base), for the warning when the
  // filter matched nothing. At most `limit` names.
  std::vector<std::string> SeenNames(std::size_t limit) const;

 private:
  struct NameState {
    std::string base_name;
    std::uint32_t launches = 0;
  };
  NameState& StateOf(std::string_view mangled_name);

  const KernelFilterSpec spec_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, NameState> names_;  // by mangled name
  std::uint64_t matching_launches_ = 0;
  std::uint32_t profiled_ = 0;
};

// The name of `mangled` in `base`.
std::string NameInBase(std::string_view mangled, NameBase base);

}  // namespace gpuscope
