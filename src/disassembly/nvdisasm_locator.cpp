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

std::vector<std::string> Directories(const NvdisasmSearch& search) {
  std::vector<std::string> directories;
  std::string_view rest = search.path;
  while (!rest.empty()) {
    const std::size_t colon = rest.find(':');
    std::string_view entry = rest.substr(0, colon);
    if (!entry.empty()) directories.emplace_back(entry);  // "" (the cwd) is not searched
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  if (!search.cuda_home.empty()) directories.push_back(search.cuda_home + "/bin");
  directories.emplace_back("/usr/local/cuda/bin");
  return directories;
}

}  // namespace

std::optional<std::string> FindNvdisasm(const NvdisasmSearch& search) {
  if (!search.chosen.empty()) return search.chosen;
  for (const std::string& directory : Directories(search)) {
    std::string candidate = directory + "/nvdisasm";
    if (IsExecutableFile(candidate)) return candidate;
  }
  return std::nullopt;
}

}  // namespace gpuscope::disassembly
