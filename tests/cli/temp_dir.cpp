#include "temp_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

namespace gpuscope::cli::testing {

std::string TempDir::Write(const std::string& name, const std::string& content, int mode) const {
  std::string path = File(name);
  {
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << content;
  }
  chmod(path.c_str(), static_cast<mode_t>(mode));
  return path;
}

bool FileExists(const std::string& path) { return access(path.c_str(), F_OK) == 0; }

}  // namespace gpuscope::cli::testing
