// A temporary directory removed with everything in it at the end of the test: the
// fixtures' scratch directory, under the name the injection tests use.
#pragma once

#include "store/testing/scratch_dir.h"

namespace gpuscope::inject::testing {

using TempDir = store::testing::ScratchDir;

}  // namespace gpuscope::inject::testing
