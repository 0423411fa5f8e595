// Runs the real gpuscope binary (GPUSCOPE_BINARY_DIR/bin/gpuscope) with stdout and stderr
// captured separately, for the end-to-end tests of `gpuscope occupancy`.
#pragma once

#include <string>
#include <vector>

#include "store/testing/scratch_dir.h"

namespace gpuscope::occupancy_testing {

struct Ran {
  int exit_code = -1;  // 128+N when killed by signal N
  std::string out;
  std::string err;
};

Ran RunGpuscope(const std::vector<std::string>& args);

// A fresh directory, removed with its contents at destruction.
using ScratchDir = store::testing::ScratchDir;

using ::gpuscope::store::testing::ReadWholeFile;

}  // namespace gpuscope::occupancy_testing
