// The GPU clock read's PTX (src/cupti/tracing/gpu_clock_ptx.cpp) against what nvcc makes of
// gpu_clock.cu today (../nvcc_ptx.h), and what the text must hold.
#include "cupti/tracing/gpu_clock.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "../nvcc_ptx.h"

namespace gpuscope::cupti {
namespace {

using testing::Instructions;
using testing::NvccPtx;

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

}  // namespace
}  // namespace gpuscope::cupti
