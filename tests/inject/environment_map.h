// An environment for ReadInjectionConfig made of a map, so that tests say exactly which
// variables are set (the process's own environment never leaks in).
#pragma once

#include <map>
#include <string>

#include "inject/config.h"

namespace gpuscope::inject::testing {

inline EnvironmentLookup From(const std::map<std::string, std::string>& env) {
  return [env](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace gpuscope::inject::testing
