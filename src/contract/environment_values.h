// How the contract's values travel: the environment as the reading side sees it (a lookup), as
// the writing side hands it over (name=value pairs), and the spellings both sides share for
// flags and counts. The requests (trace_request.h, gpu_metrics_request.h, profile_request.h)
// are written and read with these.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gpuscope::contract {

// Environment lookup; nullptr means "not set". The injection passes ::getenv, tests a map.
using EnvironmentLookup = std::function<const char*(const char*)>;

// What the launcher puts into the program's environment, in order: name and value. An empty
// value is set too: it replaces whatever an outer run left there.
using VariableValues = std::vector<std::pair<std::string, std::string>>;

// One value of an enumeration as the command line and the environment both spell it. A list
// of these is the one place the spellings live: the CLI's option accepts them, the launcher
// writes them, the injection reads them.
template <typename T>
struct Spelling {
  std::string_view name;
  T value;
};

template <typename T, std::size_t N>
std::optional<T> ValueSpelled(const Spelling<T> (&spellings)[N], std::string_view name) {
  for (const Spelling<T>& spelling : spellings) {
    if (spelling.name == name) return spelling.value;
  }
  return std::nullopt;
}

template <typename T, std::size_t N>
std::string_view SpellingOf(const Spelling<T> (&spellings)[N], T value) {
  for (const Spelling<T>& spelling : spellings) {
    if (spelling.value == value) return spelling.name;
  }
  return spellings[0].name;
}

// "a, b or c", for messages.
template <typename T, std::size_t N>
std::string SpellingList(const Spelling<T> (&spellings)[N]) {
  std::string list;
  for (std::size_t i = 0; i < N; ++i) {
    list += (i == 0 ? "" : i + 1 == N ? " or " : ", ") + std::string(spellings[i].name);
  }
  return list;
}

// What one side read from the environment: the request, and one line per variable whose value
// could not be used, each naming the variable (what the request holds then is the request's
// own rule, said where it is declared).
template <typename Request>
struct RequestReading {
  Request request;
  std::vector<std::string> problems;
};

// The value of `name`, or nullopt when it is unset or empty (empty is how the launcher says
// "not asked for").
std::optional<std::string_view> GivenValue(const EnvironmentLookup& getenv, const char* name);

// A decimal number that fills the whole text; nullopt otherwise (signs, spaces, overflow).
std::optional<unsigned> ParseUnsigned(std::string_view text);

// A "1"/"0" variable (FlagValue in environment_variables.h writes them), also true/false,
// yes/no, on/off in any case, from users who set them by hand. Unset or empty: `field` stays;
// a bad value keeps it too and adds "NAME='value' is not 1 or 0; using <field>".
void ReadFlag(const EnvironmentLookup& getenv, const char* name, bool& field,
              std::vector<std::string>& problems);

}  // namespace gpuscope::contract
