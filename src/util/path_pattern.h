// File-name patterns for reports and logs, as nvprof, nsys and ncu spell them:
//   %p        process id
//   %h        host name
//   %q{NAME}  value of environment variable NAME (an error if it is not set)
//   %%        a literal '%'
// The launcher and the injection library expand the same pattern, each with its own pid.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope {

struct PatternContext {
  unsigned pid = 0;
  std::string hostname;
  // Environment lookup; nullptr result means "not set".
  std::function<const char*(const char*)> getenv;
};

// The context of the calling process (getpid, gethostname, ::getenv).
PatternContext CurrentProcessPatternContext();

StatusOr<std::string> ExpandPathPattern(std::string_view pattern, const PatternContext& context);

// Whether the pattern names the process id, i.e. differs between processes.
bool PatternHasPid(std::string_view pattern);

// "dir/report.sqlite" + ".123" -> "dir/report.123.sqlite"; no extension: appended.
std::string InsertBeforeExtension(std::string_view path, std::string_view insert);

}  // namespace gpuscope
