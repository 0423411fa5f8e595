// The injection carries the PTX of its own kernels as text: the L2 flush
// (src/cupti/profiler/l2_flush_ptx.cpp) and the GPU clock read (src/cupti/tracing/gpu_clock_ptx.cpp); this
// checks that each text is what nvcc makes of its .cu today, so that the kernel the comments
// describe is the kernel that runs.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "cupti/profiler/l2_flush.h"
#include "cupti/tracing/gpu_clock.h"
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

// The PTX nvcc makes of `source` now ("" and a skip reason when there is no nvcc).
std::string NvccPtx(const std::string& source) {
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

TEST(L2FlushPtx, IsWhatNvccMakesOfTheKernelSource) {
  const std::string made = NvccPtx(GPUSCOPE_L2_FLUSH_CU);
  if (made.empty()) GTEST_SKIP() << "no nvcc at " << GPUSCOPE_NVCC;
  EXPECT_EQ(Instructions(std::string(L2FlushPtx())), Instructions(made))
      << "regenerate src/cupti/profiler/l2_flush_ptx.cpp (command in src/cupti/profiler/l2_flush.cu)";
}

TEST(GpuClockPtx, IsWhatNvccMakesOfTheKernelSource) {
  const std::string made = NvccPtx(GPUSCOPE_GPU_CLOCK_CU);
  if (made.empty()) GTEST_SKIP() << "no nvcc at " << GPUSCOPE_NVCC;
  EXPECT_EQ(Instructions(std::string(GpuClockPtx())), Instructions(made))
      << "regenerate src/cupti/tracing/gpu_clock_ptx.cpp (command in src/cupti/tracing/gpu_clock.cu)";
}

// One thread reads %globaltimer and makes one store, then the system-wide fence that makes it
// visible to the host polling the pinned slot.
TEST(GpuClockPtx, IsOneCStringThatReadsTheGlobalTimerAndStoresOnce) {
  std::string_view ptx = GpuClockPtx();
  EXPECT_EQ(ptx.data()[ptx.size()], '\0');
  EXPECT_NE(ptx.find(".entry gpuscope_clock_read("), std::string_view::npos);
  EXPECT_NE(ptx.find("%globaltimer"), std::string_view::npos);
  EXPECT_NE(ptx.find("st.volatile.global.u64"), std::string_view::npos);
  EXPECT_EQ(ptx.find("st."), ptx.rfind("st.")) << "one store";
  EXPECT_NE(ptx.find("membar.sys"), std::string_view::npos);
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
