// Finds the program `gpuscope run` should start, the way execvp would, but before forking:
// a program that cannot be started is reported as one line and exit code 127 without ever
// creating a process or a report.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope::cli {

enum class ProgramProblem { kNone, kNotFound, kNotExecutable };

struct ResolvedProgram {
  ProgramProblem problem = ProgramProblem::kNone;
  std::string path;  // what to pass to execve when problem == kNone
};

// A name with a '/' is used as given; otherwise each directory of `search_path` (a PATH
// value; empty entries mean the current directory) is tried in order. A file that exists
// but is not an executable regular file makes the result kNotExecutable unless a later
// directory has an executable one (execvp's rule).
ResolvedProgram ResolveProgram(std::string_view name, std::string_view search_path);

// ResolveProgram with this process's PATH (execvp's default when PATH is unset).
ResolvedProgram ResolveProgramFromEnvironment(std::string_view name);

// "gpuscope: error: <name>: command not found" and friends, without the prefix.
std::string DescribeProgramProblem(std::string_view name, ProgramProblem problem);

}  // namespace gpuscope::cli
