#include "profile_runs.h"

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gpuscope::gpu_test {
namespace {

bool IsExecutable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::string FindNcu() {
  if (const char* configured = std::getenv("GPUSCOPE_NCU")) {
    return IsExecutable(configured) ? configured : "";
  }
  if (const char* path = std::getenv("PATH")) {
    std::stringstream directories(path);
    for (std::string directory; std::getline(directories, directory, ':');) {
      if (!directory.empty() && IsExecutable(directory + "/ncu")) return directory + "/ncu";
    }
  }
  return IsExecutable("/usr/local/cuda/bin/ncu") ? "/usr/local/cuda/bin/ncu" : "";
}

CommandResult RunGpuscopeProfile(const ScratchDir& dir, const std::vector<std::string>& options,
                                 const std::vector<std::string>& program, int timeout_seconds) {
  std::vector<std::string> argv = {GpuscopeBinary(), "profile", "-o", dir.path() + "/p_%p.sqlite",
                                   "-f"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return RunCommand(argv, {}, timeout_seconds);
}

std::vector<std::string> ChecksumLines(const std::string& output) {
  std::vector<std::string> lines;
  std::stringstream stream(output);
  for (std::string line; std::getline(stream, line);) {
    if (line.rfind("checksum ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

void SaveText(const ScratchDir& dir, const std::string& name, const std::string& text) {
  std::ofstream(dir.path() + "/" + name, std::ios::binary) << text;
}

}  // namespace gpuscope::gpu_test
