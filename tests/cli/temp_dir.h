// A fresh directory per test, removed with everything in it when the test ends.
#pragma once

#include <string>

#include "store/testing/scratch_dir.h"

namespace gpuscope::cli::testing {

// The fixtures' scratch directory, plus writing files into it.
class TempDir : public store::testing::ScratchDir {
 public:
  // Creates path()/name with `content` and the given permission bits; returns its path.
  std::string Write(const std::string& name, const std::string& content, int mode = 0644) const;
};

using ::gpuscope::store::testing::ReadWholeFile;
bool FileExists(const std::string& path);

}  // namespace gpuscope::cli::testing
