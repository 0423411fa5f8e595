// ModuleCubins (source counters): a loaded module's cubin is kept under CUPTI's CRC, the one
// SASS-metric and PC-sampling records carry, and goes to the report once. Fed the real cubin
// of tests/data/sass (its CRC, 4247150626, computed by CUPTI on this GPU-less machine).
#include "cupti/profiler/module_cubins.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace gpuscope::cupti {
namespace {

constexpr std::uint64_t kCubinCrc = 4247150626u;

std::vector<std::uint8_t> RecordedCubin() {
  std::ifstream file(std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/k.cubin", std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

TEST(ModuleCubins, ALoadedCubinIsGivenOnceUnderItsCrc) {
  const std::vector<std::uint8_t> cubin = RecordedCubin();
  ASSERT_GT(cubin.size(), 1000u) << "tests/data/sass/k.cubin";
  ModuleCubins cubins;
  {
    // The driver's buffer is valid only during the callback: the copy must not depend on it.
    std::vector<std::uint8_t> callback_buffer = cubin;
    cubins.OnModuleLoaded(callback_buffer.data(), callback_buffer.size());
    std::fill(callback_buffer.begin(), callback_buffer.end(), 0);
  }
  EXPECT_TRUE(cubins.Knows(kCubinCrc));
  ModuleCubins::Image image = cubins.TakeForReport(kCubinCrc);
  ASSERT_NE(image, nullptr);
  EXPECT_EQ(*image, cubin);
  EXPECT_EQ(cubins.TakeForReport(kCubinCrc), nullptr) << "a report stores each cubin once";
  EXPECT_EQ(cubins.TakeForReport(kCubinCrc + 1), nullptr) << "never loaded";
}

TEST(ModuleCubins, WhatIsNotAnElfImageIsNotKept) {
  ModuleCubins cubins;
  const std::string ptx = "//\n.version 8.0\n.target sm_90\n";
  cubins.OnModuleLoaded(ptx.data(), ptx.size());
  cubins.OnModuleLoaded(nullptr, 100);
  const std::uint8_t short_elf[] = {0x7f, 'E', 'L'};
  cubins.OnModuleLoaded(short_elf, sizeof short_elf);
  EXPECT_FALSE(cubins.Knows(kCubinCrc));
}

}  // namespace
}  // namespace gpuscope::cupti
