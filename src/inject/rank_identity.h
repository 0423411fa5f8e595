// Where the traced process stands in a job of many processes (ranks), for its report: rank,
// local rank and world size from the job launcher's variables (contract/environment_variables.h
// lists them in order of precedence), and the host's boot id, which tells reports of one boot
// of one host (whose clocks agree) from those of other hosts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gpuscope::inject {

struct RankIdentity {
  std::optional<std::int64_t> rank;        // nullopt: unknown
  std::optional<std::int64_t> local_rank;  // nullopt: unknown
  std::optional<std::int64_t> world_size;  // nullopt: unknown
  std::string rank_variable;               // the variable that gave the rank; empty: none
};

// The first variable of each list that is set (not empty) gives the value. A value that is
// not a number in range (a rank or local rank >= 0, a world size >= 1, all below 2^31)
// leaves that value unknown and adds one line to `warnings`; the later variables of the
// list are not consulted then.
// `getenv` as config.h's EnvironmentLookup (nullptr: not set); ReadInjectionConfig calls it.
RankIdentity ReadRankIdentity(const std::function<const char*(const char*)>& getenv,
                              std::vector<std::string>& warnings);

inline constexpr const char* kBootIdPath = "/proc/sys/kernel/random/boot_id";

// The kernel's boot id (a UUID, the same for every process of one boot of one host), without
// its newline; empty when the file cannot be read or holds something else.
std::string ReadBootId(const char* path = kBootIdPath);

}  // namespace gpuscope::inject
