// The environment the launcher would hand the program, as the injection's lookup sees it: the
// contract's tests write a request with ToEnvironment and read it back through this.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "contract/environment_values.h"

namespace gpuscope::contract::testing {

// An empty value is set (as the launcher sets it), not absent.
inline EnvironmentLookup EnvironmentOf(const VariableValues& values) {
  auto map = std::make_shared<std::map<std::string, std::string>>();
  for (const auto& [name, value] : values) (*map)[name] = value;
  return [map](const char* name) -> const char* {
    auto it = map->find(name);
    return it == map->end() ? nullptr : it->second.c_str();
  };
}

// `values` with `name` set to `value` (added when absent).
inline VariableValues With(VariableValues values, const std::string& name,
                           const std::string& value) {
  for (auto& [given, given_value] : values) {
    if (given == name) {
      given_value = value;
      return values;
    }
  }
  values.emplace_back(name, value);
  return values;
}

}  // namespace gpuscope::contract::testing
