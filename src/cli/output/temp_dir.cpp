#include "cli/output/temp_dir.h"

#include <cstdlib>

namespace gpuscope::cli {

std::string TemporaryDirectory() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir != nullptr && *tmpdir != '\0' ? tmpdir : "/tmp";
}

}  // namespace gpuscope::cli
