#include "util/path_pattern.h"

#include <unistd.h>

#include <climits>
#include <cstdlib>

namespace gpuscope {

PatternContext CurrentProcessPatternContext() {
  PatternContext context;
  context.pid = static_cast<unsigned>(getpid());
  char host[HOST_NAME_MAX + 1] = {};
  if (gethostname(host, sizeof(host) - 1) == 0) context.hostname = host;
  context.getenv = [](const char* name) -> const char* { return std::getenv(name); };
  return context;
}

StatusOr<std::string> ExpandPathPattern(std::string_view pattern, const PatternContext& context) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c != '%') {
      out.push_back(c);
      continue;
    }
    if (i + 1 >= pattern.size()) {
      return Status::Error("file name pattern '" + std::string(pattern) + "' ends with a lone '%'");
    }
    char macro = pattern[++i];
    switch (macro) {
      case '%':
        out.push_back('%');
        break;
      case 'p':
        out += std::to_string(context.pid);
        break;
      case 'h':
        out += context.hostname;
        break;
      case 'q': {
        std::size_t close = pattern.find('}', i);
        if (i + 1 >= pattern.size() || pattern[i + 1] != '{' || close == std::string_view::npos) {
          return Status::Error("file name pattern '" + std::string(pattern) +
                               "': %q must be followed by {ENV_NAME}");
        }
        std::string name(pattern.substr(i + 2, close - i - 2));
        const char* value = context.getenv ? context.getenv(name.c_str()) : nullptr;
        if (value == nullptr) {
          return Status::Error("file name pattern '" + std::string(pattern) +
                               "': environment variable " + name + " is not set");
        }
        out += value;
        i = close;
        break;
      }
      default:
        return Status::Error("file name pattern '" + std::string(pattern) + "': unknown macro %" +
                             std::string(1, macro) + " (use %p, %h, %q{ENV} or %%)");
    }
  }
  return out;
}

bool PatternHasPid(std::string_view pattern) {
  for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
    if (pattern[i] != '%') continue;
    if (pattern[i + 1] == 'p') return true;
    ++i;  // skip the macro character, so "%%p" is a literal "%p"
  }
  return false;
}

std::string InsertBeforeExtension(std::string_view path, std::string_view insert) {
  std::size_t slash = path.rfind('/');
  std::size_t dot = path.rfind('.');
  bool has_extension = dot != std::string_view::npos && dot > 0 &&
                       (slash == std::string_view::npos || dot > slash + 1);
  if (!has_extension) return std::string(path) + std::string(insert);
  return std::string(path.substr(0, dot)) + std::string(insert) + std::string(path.substr(dot));
}

}  // namespace gpuscope
