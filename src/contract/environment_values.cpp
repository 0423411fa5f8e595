#include "contract/environment_values.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "contract/environment_variables.h"

namespace gpuscope::contract {
namespace {

std::optional<bool> ParseFlag(std::string_view text) {
  std::string value(text);
  std::transform(value.begin(), value.end(), value.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (value == "1" || value == "true" || value == "yes" || value == "on") return true;
  if (value == "0" || value == "false" || value == "no" || value == "off") return false;
  return std::nullopt;
}

}  // namespace

std::optional<std::string_view> GivenValue(const EnvironmentLookup& getenv, const char* name) {
  const char* raw = getenv(name);
  if (raw == nullptr || *raw == '\0') return std::nullopt;
  return std::string_view(raw);
}

std::optional<unsigned> ParseUnsigned(std::string_view text) {
  unsigned value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end || text.empty()) return std::nullopt;
  return value;
}

void ReadFlag(const EnvironmentLookup& getenv, const char* name, bool& field,
              std::vector<std::string>& problems) {
  std::optional<std::string_view> raw = GivenValue(getenv, name);
  if (!raw) return;
  if (std::optional<bool> value = ParseFlag(*raw)) {
    field = *value;
    return;
  }
  problems.push_back(std::string(name) + "='" + std::string(*raw) + "' is not 1 or 0; using " +
                     FlagValue(field));
}

}  // namespace gpuscope::contract
