// Whether the Python that runs the GPU tests' scripts can import a framework. A module it
// cannot import is a failure (a missing module must not read as a pass), unless
// GPUSCOPE_ALLOW_MISSING_PYTHON=1, which turns it into a skip with the reason
// (scripts/gpu-tests.sh counts skips in its summary).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "traced_run.h"

namespace gpuscope::gpu_test {

// Imports the way the scripts do (numba-cuda needs numpy's row_stack back first).
inline constexpr const char* kImportNumba =
    "import numpy as np\n"
    "if not hasattr(np, 'row_stack'): np.row_stack = np.vstack\n"
    "from numba import cuda";
inline constexpr const char* kImportCupy = "import cupy";
inline constexpr const char* kImportTorch = "import torch";

// Empty when `import_code` runs in the test's Python; else why not (for GTEST_SKIP).
std::string ImportProblem(const char* import_code);

// GPUSCOPE_ALLOW_MISSING_PYTHON=1.
bool MissingPythonModulesAllowed();

}  // namespace gpuscope::gpu_test

// In a TEST body: fails (or skips, see above) unless `import_code` runs.
#define REQUIRE_IMPORTABLE(import_code, module)                                          \
  do {                                                                                   \
    const std::string problem = ::gpuscope::gpu_test::ImportProblem(import_code);        \
    const std::string python = ::gpuscope::gpu_test::PythonInterpreter();                \
    if (!problem.empty()) {                                                              \
      if (::gpuscope::gpu_test::MissingPythonModulesAllowed()) {                         \
        GTEST_SKIP() << module << " is not importable by " << python << ": " << problem; \
      }                                                                                  \
      FAIL() << module << " is not importable by " << python << ": " << problem          \
             << " (GPUSCOPE_ALLOW_MISSING_PYTHON=1 skips this test instead)";            \
    }                                                                                    \
  } while (0)
