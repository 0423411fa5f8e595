// SASS text of gpuscope (nvdisasm) and of ncu made comparable: ncu prints SASS without
// nvdisasm's register-reuse flags, with wider spacing after a predicate and branch targets as
// addresses, so those are dropped before comparing.
#pragma once

#include <string>

namespace gpuscope::testing {

inline std::string ComparableSass(std::string text) {
  if (std::size_t branch = text.find("BRA "); branch != std::string::npos) text.resize(branch + 3);
  for (std::size_t at; (at = text.find(".reuse")) != std::string::npos;) text.erase(at, 6);
  std::string out;
  for (char c : text) {
    if (c == ' ' && !out.empty() && out.back() == ' ') continue;
    out += c;
  }
  return out;
}

}  // namespace gpuscope::testing
