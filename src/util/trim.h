// Whitespace (std::isspace) removed from both ends of a view: the text formats gpuscope reads
// (nvdisasm listings, ncu's CSV) pad their fields with it. Header-only.
#pragma once

#include <cctype>
#include <string_view>

namespace gpuscope {

inline std::string_view TrimWhitespace(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

}  // namespace gpuscope
