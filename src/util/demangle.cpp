#include "util/demangle.h"

#include <cxxabi.h>

#include <cstdlib>

namespace gpuscope {

namespace {
// Kineto caps demangler input too: pathological template names can take very long.
constexpr std::size_t kMaxMangledLength = 8192;
}  // namespace

std::string Demangle(std::string_view mangled) {
  if (mangled.size() < 2 || mangled.size() > kMaxMangledLength || mangled.substr(0, 2) != "_Z") {
    return std::string(mangled);
  }
  std::string input(mangled);  // __cxa_demangle needs a NUL-terminated string
  int status = 0;
  char* out = abi::__cxa_demangle(input.c_str(), nullptr, nullptr, &status);
  if (status != 0 || out == nullptr) {
    std::free(out);
    return input;
  }
  std::string result(out);
  std::free(out);
  return result;
}

std::string FunctionBaseName(std::string_view name) {
  // Cut the parameter list: the last top-level '(' that closes at the end of the name.
  int depth = 0;
  std::size_t cut = name.size();
  for (std::size_t i = name.size(); i-- > 0;) {
    char c = name[i];
    if (c == ')') ++depth;
    if (c == '(') {
      if (--depth == 0) {
        cut = i;
        break;
      }
    }
  }
  std::string_view head = name.substr(0, cut);
  // Drop a return type: the last top-level space outside template brackets and parentheses
  // ("(anonymous namespace)::k" keeps its space).
  int angle = 0;
  int paren = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < head.size(); ++i) {
    char c = head[i];
    if (c == '<') ++angle;
    if (c == '>') --angle;
    if (c == '(') ++paren;
    if (c == ')') --paren;
    if (c == ' ' && angle == 0 && paren == 0) start = i + 1;
  }
  return std::string(head.substr(start));
}

}  // namespace gpuscope
