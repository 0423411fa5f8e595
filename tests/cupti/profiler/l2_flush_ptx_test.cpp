// The L2 flush's PTX (src/cupti/profiler/l2_flush_ptx.cpp) against what nvcc makes of
// l2_flush.cu today (../nvcc_ptx.h), and what the text must hold.
#include "cupti/profiler/l2_flush.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "../nvcc_ptx.h"

namespace gpuscope::cupti {
namespace {

using testing::Instructions;
using testing::NvccPtx;

TEST(L2FlushPtx, IsWhatNvccMakesOfTheKernelSource) {
  const std::string made = NvccPtx(GPUSCOPE_L2_FLUSH_CU);
  if (made.empty()) GTEST_SKIP() << "no nvcc at " << GPUSCOPE_NVCC;
  EXPECT_EQ(Instructions(std::string(L2FlushPtx())), Instructions(made))
      << "regenerate src/cupti/profiler/l2_flush_ptx.cpp (command in src/cupti/profiler/l2_flush.cu)";
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
