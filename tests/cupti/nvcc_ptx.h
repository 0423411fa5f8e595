// The injection carries the PTX of its own kernels as text (the L2 flush of cupti/profiler, the
// GPU clock read of cupti/tracing); their tests compare each text with what nvcc makes of its
// .cu today, so that the kernel the comments describe is the kernel that runs.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "store/testing/scratch_dir.h"

namespace gpuscope::cupti::testing {

// The PTX without nvcc's comment lines (they name the compiler build) and blank lines.
inline std::string Instructions(const std::string& ptx) {
  std::istringstream in(ptx);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.rfind("//", 0) == 0) continue;
    out += line + '\n';
  }
  return out;
}

// The PTX nvcc makes of `source` now ("" when there is no nvcc at GPUSCOPE_NVCC).
inline std::string NvccPtx(const std::string& source) {
  const std::string nvcc = GPUSCOPE_NVCC;
  if (!std::filesystem::exists(nvcc)) return "";
  store::testing::ScratchDir dir;
  const std::string out = dir.path() + "/kernel.ptx";
  const std::string command =
      "'" + nvcc + "' -ptx -arch=compute_75 '" + source + "' -o '" + out + "' 2>&1";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream made(out);
  std::stringstream text;
  text << made.rdbuf();
  EXPECT_FALSE(text.str().empty());
  return text.str();
}

}  // namespace gpuscope::cupti::testing
