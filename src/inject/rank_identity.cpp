#include "inject/rank_identity.h"

#include <charconv>
#include <cstdio>
#include <string_view>

#include "contract/environment_variables.h"

namespace gpuscope::inject {

namespace {

constexpr std::int64_t kLargest = 0x7fff'ffff;  // ranks and sizes fit a signed 32-bit int

// The value of the first set variable of `names`, parsed; nullopt when none is set or its
// value is not a number in [minimum, kLargest] (then one warning). `which` gets the name.
template <std::size_t N>
std::optional<std::int64_t> FirstSet(const std::function<const char*(const char*)>& getenv,
                                     const char* const (&names)[N], std::int64_t minimum,
                                     const char* meaning, std::vector<std::string>& warnings,
                                     std::string* which) {
  for (const char* name : names) {
    const char* raw = getenv(name);
    if (raw == nullptr || *raw == '\0') continue;
    const std::string_view text(raw);
    std::int64_t value = 0;
    auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error == std::errc() && end == text.data() + text.size() && value >= minimum &&
        value <= kLargest) {
      if (which != nullptr) *which = name;
      return value;
    }
    warnings.push_back(std::string(name) + "='" + std::string(text) + "' is not " + meaning +
                       "; the report records it as unknown");
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

RankIdentity ReadRankIdentity(const std::function<const char*(const char*)>& getenv,
                              std::vector<std::string>& warnings) {
  RankIdentity identity;
  identity.rank = FirstSet(getenv, contract::kRankVariables, 0, "a rank (a number >= 0)", warnings,
                           &identity.rank_variable);
  identity.local_rank = FirstSet(getenv, contract::kLocalRankVariables, 0,
                                 "a local rank (a number >= 0)", warnings, nullptr);
  identity.world_size = FirstSet(getenv, contract::kWorldSizeVariables, 1,
                                 "a world size (a number >= 1)", warnings, nullptr);
  return identity;
}

std::string ReadBootId(const char* path) {
  std::FILE* file = std::fopen(path, "re");
  if (file == nullptr) return "";
  char text[64] = {};
  const std::size_t n = std::fread(text, 1, sizeof(text) - 1, file);
  std::fclose(file);
  std::string_view id(text, n);
  while (!id.empty() && (id.back() == '\n' || id.back() == ' ')) id.remove_suffix(1);
  // A UUID: 36 characters of hex digits and dashes. Anything else is not a boot id.
  if (id.size() != 36) return "";
  for (char c : id) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex && c != '-') return "";
  }
  return std::string(id);
}

}  // namespace gpuscope::inject
