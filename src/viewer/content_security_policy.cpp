#include "viewer/content_security_policy.h"

#include <cctype>

namespace gpuscope::viewer {
namespace {

std::string_view TrimSpaces(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// Directive names are case-insensitive (CSP 3, "parse a serialized policy").
bool NamesFrameAncestors(std::string_view directive) {
  constexpr std::string_view kName = "frame-ancestors";
  std::string_view name = directive.substr(0, directive.find_first_of(" \t"));
  if (name.size() != kName.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(name[i])) != kName[i]) return false;
  }
  return true;
}

}  // namespace

std::string WithFramingRefused(std::string_view policy) {
  std::string out;
  while (!policy.empty()) {
    std::size_t semicolon = policy.find(';');
    std::string_view directive = TrimSpaces(policy.substr(0, semicolon));
    policy = semicolon == std::string_view::npos ? "" : policy.substr(semicolon + 1);
    if (directive.empty() || NamesFrameAncestors(directive)) continue;
    out += directive;
    out += "; ";
  }
  return out + std::string(kNoFramingPolicy);
}

}  // namespace gpuscope::viewer
