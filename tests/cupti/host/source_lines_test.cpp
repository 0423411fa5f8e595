// CUPTI's line table of a cubin, read with no GPU (tests/data/sass/k.cubin, built with
// -lineinfo in /tmp/sx; its lines checked against `nvdisasm -g`, k.nvdisasm.txt).
#include "cupti/host/source_lines.h"

#include <gtest/gtest.h>

#include "store/testing/sass_fixtures.h"

namespace gpuscope::cupti::host {
namespace {

const std::string kData = std::string(GPUSCOPE_TEST_DATA_DIR) + "/sass/";

TEST(SourceLines, MapsOffsetsOfTheRecordedKernelToItsLines) {
  std::vector<std::uint8_t> cubin = store::testing::ReadBinaryFile(kData + "k.cubin");
  const std::pair<std::uint64_t, std::uint32_t> expected[] = {
      {0x0, 1}, {0x10, 3}, {0x20, 5}, {0x130, 4}, {0x170, 6}};
  for (const auto& [pc, line] : expected) {
    std::optional<SourceLocation> found = SourceLineOf(cubin, "_Z3accPKfPdi", pc);
    ASSERT_TRUE(found.has_value()) << pc;
    EXPECT_EQ(found->file, "/tmp/sx/k.cu");
    EXPECT_EQ(found->line, line) << pc;
  }
}

TEST(SourceLines, UnknownFunctionOrDamagedCubinHasNoLine) {
  std::vector<std::uint8_t> cubin = store::testing::ReadBinaryFile(kData + "k.cubin");
  EXPECT_FALSE(SourceLineOf(cubin, "_Z7missingv", 0).has_value());
  std::vector<std::uint8_t> cut(cubin.begin(), cubin.begin() + 16);
  EXPECT_FALSE(SourceLineOf(cut, "_Z3accPKfPdi", 0).has_value());
  EXPECT_FALSE(SourceLineOf({}, "_Z3accPKfPdi", 0).has_value());
}

TEST(SourceLines, CubinCrcIsCuptis) {
  EXPECT_EQ(CubinCrc(store::testing::ReadBinaryFile(kData + "k.cubin")).value(), 4247150626u);
  EXPECT_EQ(CubinCrc(store::testing::ReadBinaryFile(kData + "probe.cubin")).value(), 57506000u);
  EXPECT_FALSE(CubinCrc({}).ok());
}

}  // namespace
}  // namespace gpuscope::cupti::host
