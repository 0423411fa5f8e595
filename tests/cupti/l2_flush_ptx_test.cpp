// The injection carries the PTX of its L2 flush kernel as text (src/cupti/l2_flush_ptx.cpp);
// this checks that the text is what nvcc makes of src/cupti/l2_flush.cu today, so that the
// kernel the comments describe is the kernel that runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cupti/l2_flush.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::cupti {
namespace {

// The PTX without nvcc's comment lines (they name the compiler build) and blank lines.
std::string Instructions(const std::string& ptx) {
  std::istringstream in(ptx);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line.rfind("//", 0) == 0) continue;
    out += line + '\n';
  }
  return out;
}

TEST(L2FlushPtx, IsWhatNvccMakesOfTheKernelSource) {
  const std::string nvcc = GPUSCOPE_NVCC;
  if (!std::filesystem::exists(nvcc)) GTEST_SKIP() << "no nvcc at " << nvcc;
  store::testing::ScratchDir dir;
  const std::string out = dir.path() + "/l2_flush.ptx";
  const std::string command = "'" + nvcc + "' -ptx -arch=compute_75 '" GPUSCOPE_L2_FLUSH_CU
                              "' -o '" + out + "' 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream made(out);
  std::stringstream text;
  text << made.rdbuf();
  ASSERT_FALSE(text.str().empty());
  EXPECT_EQ(Instructions(std::string(L2FlushPtx())), Instructions(text.str()))
      << "regenerate src/cupti/l2_flush_ptx.cpp (command in src/cupti/l2_flush.cu)";
}

// cuModuleLoadData takes the PTX as a C string: the text must end where the literal does.
TEST(L2FlushPtx, IsOneCStringNamingTheEntry) {
  std::string_view ptx = L2FlushPtx();
  EXPECT_EQ(ptx.data()[ptx.size()], '\0');
  EXPECT_NE(ptx.find(".entry gpuscope_l2_flush("), std::string_view::npos);
  EXPECT_EQ(ptx.find("st.global"), ptx.rfind("st.global")) << "one store, never taken";
}

}  // namespace
}  // namespace gpuscope::cupti
