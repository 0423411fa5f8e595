// NCCL kernel names and the matching of collectives across ranks.
#include "analysis/ranks/collectives.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <optional>

namespace gpuscope::analysis::ranks {
namespace {

constexpr std::string_view kDevKernelPrefix = "ncclDevKernel_";  // NCCL 2.19 and later
constexpr std::string_view kKernelPrefix = "ncclKernel_";        // NCCL 2.5 to 2.18
constexpr std::string_view kNcclPrefix = "nccl";  // older: ncclAllReduceRingLLKernel_sum_f32

// The function's own name: the source name inside an Itanium mangled name (_Z<length><name>),
// or a demangled name without a leading return type and without its parameters.
std::string_view OwnFunctionName(std::string_view name) {
  if (name.starts_with("_Z")) {
    std::size_t pos = 2;
    if (pos < name.size() && name[pos] == 'L') ++pos;  // internal linkage
    std::size_t length = 0;
    std::size_t digits = pos;
    while (digits < name.size() && name[digits] >= '0' && name[digits] <= '9') {
      length = length * 10 + static_cast<std::size_t>(name[digits] - '0');
      ++digits;
    }
    if (digits == pos || length > name.size() - digits) return {};
    return name.substr(digits, length);
  }
  if (name.starts_with("void ")) name.remove_prefix(5);
  return name.substr(0, std::min(name.find('('), name.find('<')));
}

// What follows NCCL's prefix in the function name ("AllReduce_Sum_f32_RING_LL"); nullopt
// for a kernel that is not NCCL's.
std::optional<std::string_view> NcclSuffix(std::string_view mangled_or_demangled) {
  std::string_view function = OwnFunctionName(mangled_or_demangled);
  for (std::string_view prefix : {kDevKernelPrefix, kKernelPrefix}) {
    if (function.starts_with(prefix)) return function.substr(prefix.size());
  }
  if (function.starts_with(kNcclPrefix) && function.find("Kernel") != std::string_view::npos) {
    return function.substr(kNcclPrefix.size());
  }
  return std::nullopt;
}

}  // namespace

bool IsNcclKernel(std::string_view mangled_or_demangled) {
  return NcclSuffix(mangled_or_demangled).has_value();
}

std::string CollectiveKind(std::string_view mangled_or_demangled) {
  // Longer names first where one starts with another (ReduceScatter/Reduce, SendRecv/Send).
  static constexpr std::array<std::string_view, 8> kKinds = {
      "AllReduce", "AllGather", "ReduceScatter", "Broadcast", "SendRecv", "Send", "Recv", "Reduce"};
  std::optional<std::string_view> suffix = NcclSuffix(mangled_or_demangled);
  if (!suffix) return "Other";
  for (std::string_view kind : kKinds) {
    if (suffix->starts_with(kind)) return std::string(kind);
  }
  return "Other";
}

std::vector<MatchedCollective> MatchCollectives(
    const std::vector<std::vector<CollectiveEvent>>& per_rank) {
  if (per_rank.empty()) return {};
  // Per rank and kind, the events' indexes in start order.
  std::vector<std::map<std::string, std::vector<std::size_t>, std::less<>>> by_kind(
      per_rank.size());
  std::vector<std::size_t> first_rank_position(per_rank[0].size());
  for (std::size_t r = 0; r < per_rank.size(); ++r) {
    const std::vector<CollectiveEvent>& events = per_rank[r];
    std::vector<std::size_t> order(events.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return events[a].start < events[b].start;
    });
    for (std::size_t position = 0; position < order.size(); ++position) {
      by_kind[r][events[order[position]].kind].push_back(order[position]);
      if (r == 0) first_rank_position[order[position]] = position;
    }
  }
  std::vector<MatchedCollective> matched;
  for (const auto& [kind, first_events] : by_kind[0]) {
    std::size_t common = first_events.size();
    for (std::size_t r = 1; r < per_rank.size(); ++r) {
      auto found = by_kind[r].find(kind);
      common = std::min(common, found == by_kind[r].end() ? 0 : found->second.size());
    }
    for (std::size_t k = 0; k < common; ++k) {
      MatchedCollective collective{kind, k, {}};
      collective.event.reserve(per_rank.size());
      for (std::size_t r = 0; r < per_rank.size(); ++r) {
        collective.event.push_back(by_kind[r].find(kind)->second[k]);
      }
      matched.push_back(std::move(collective));
    }
  }
  std::sort(matched.begin(), matched.end(),
            [&](const MatchedCollective& a, const MatchedCollective& b) {
              return first_rank_position[a.event[0]] < first_rank_position[b.event[0]];
            });
  return matched;
}

}  // namespace gpuscope::analysis::ranks
