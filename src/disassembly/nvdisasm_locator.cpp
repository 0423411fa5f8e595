#include "disassembly/nvdisasm_locator.h"

#include <sys/stat.h>
#include <unistd.h>

#include <string_view>
#include <vector>

namespace gpuscope::disassembly {
namespace {

bool IsExecutableFile(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         ::access(path.c_str(), X_OK) == 0;
}

std::vector<std::string> Directories(const EnvironmentLookup& getenv) {
  std::vector<std::string> directories;
  if (const char* path = getenv("PATH")) {
    std::string_view rest = path;
    while (true) {
      const std::size_t colon = rest.find(':');
      std::string_view entry = rest.substr(0, colon);
      if (!entry.empty()) directories.emplace_back(entry);  // "" (the cwd) is not searched
      if (colon == std::string_view::npos) break;
      rest.remove_prefix(colon + 1);
    }
  }
  if (const char* cuda_home = getenv("CUDA_HOME"); cuda_home != nullptr && *cuda_home != '\0') {
    directories.push_back(std::string(cuda_home) + "/bin");
  }
  directories.emplace_back("/usr/local/cuda/bin");
  return directories;
}

}  // namespace

std::optional<std::string> FindNvdisasm(const EnvironmentLookup& getenv) {
  if (const char* given = getenv(kNvdisasmVariable); given != nullptr && *given != '\0') {
    return std::string(given);
  }
  for (const std::string& directory : Directories(getenv)) {
    std::string candidate = directory + "/nvdisasm";
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace gpuscope::disassembly
