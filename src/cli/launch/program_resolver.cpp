#include "cli/launch/program_resolver.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

namespace gpuscope::cli {
namespace {

// glibc's execvp searches this when PATH is unset.
constexpr std::string_view kDefaultSearchPath = "/bin:/usr/bin";

ProgramProblem Check(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return ProgramProblem::kNotFound;
  if (!S_ISREG(info.st_mode) || access(path.c_str(), X_OK) != 0) {
    return ProgramProblem::kNotExecutable;
  }
  return ProgramProblem::kNone;
}

}  // namespace

ResolvedProgram ResolveProgram(std::string_view name, std::string_view search_path) {
  if (name.empty()) return {ProgramProblem::kNotFound, ""};
  if (name.find('/') != std::string_view::npos) {
    std::string path(name);
    return {Check(path), path};
  }
  ResolvedProgram result{ProgramProblem::kNotFound, ""};
  std::size_t begin = 0;
  while (begin <= search_path.size()) {
    std::size_t end = search_path.find(':', begin);
    if (end == std::string_view::npos) end = search_path.size();
    std::string_view dir = search_path.substr(begin, end - begin);
    std::string candidate =
        dir.empty() ? std::string(name) : std::string(dir) + "/" + std::string(name);
    if (dir.empty()) candidate = "./" + candidate;
    ProgramProblem problem = Check(candidate);
    if (problem == ProgramProblem::kNone) return {ProgramProblem::kNone, candidate};
    if (problem == ProgramProblem::kNotExecutable) result = {problem, candidate};
    begin = end + 1;
  }
  return result;
}

ResolvedProgram ResolveProgramFromEnvironment(std::string_view name) {
  const char* path = std::getenv("PATH");
  return ResolveProgram(name, path != nullptr ? std::string_view(path) : kDefaultSearchPath);
}

std::string DescribeProgramProblem(std::string_view name, ProgramProblem problem) {
  switch (problem) {
    case ProgramProblem::kNotFound:
      return std::string(name) + ": command not found";
    case ProgramProblem::kNotExecutable:
      return std::string(name) + " is not executable";
    case ProgramProblem::kNone:
      break;
  }
  return std::string(name);
}

}  // namespace gpuscope::cli
