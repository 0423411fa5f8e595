// Native return addresses symbolized with elfutils from the module map the injection records:
// this test's own frames (the test binary is built with -g) to function, file and line, and
// addresses outside any module or in a missing file.
#include "symbols/native_symbols.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "../support/own_native_frames.h"
#include "inject/module_map.h"

namespace gpuscope {
namespace {

using inject::CapturedFrame;
using testing::FirstCallSite;
using testing::g_first_call_line;

TEST(NativeCapture, SymbolizedFromTheModuleMapToFunctionFileAndLine) {
  const std::vector<CapturedFrame> frames = FirstCallSite();
  std::vector<symbols::Module> modules;
  for (const inject::LoadedModule& module : inject::LoadedModules()) {
    modules.push_back({module.path, module.start, module.end, module.bias});
  }
  ASSERT_FALSE(modules.empty());
  std::vector<std::uint64_t> addresses;
  for (const CapturedFrame& frame : frames) addresses.push_back(frame.address);
  std::vector<symbols::Symbol> found = symbols::Symbolize(modules, addresses);
  ASSERT_EQ(found.size(), addresses.size());
  // Frame 0 is in CaptureHere (the call of CaptureNativeFrames); frame 1 is the call in
  // FirstCallSite, at the line recorded there.
  EXPECT_NE(found[0].function.find("CaptureHere"), std::string::npos) << found[0].function;
  EXPECT_NE(found[1].function.find("FirstCallSite"), std::string::npos) << found[1].function;
  EXPECT_TRUE(found[1].file.ends_with("own_native_frames.h")) << found[1].file;
  EXPECT_EQ(found[1].line, static_cast<std::uint32_t>(g_first_call_line));
  ASSERT_GE(found[1].module, 0);
  EXPECT_TRUE(modules[found[1].module].path.ends_with("symbols_tests"))
      << modules[found[1].module].path;
}

TEST(NativeCapture, AnAddressInNoModuleOrAMissingFileKeepsWhatIsKnown) {
  const std::vector<symbols::Module> modules = {
      {"/nonexistent/libgone.so", 0x10000, 0x20000, 0x10000}};
  std::vector<symbols::Symbol> found =
      symbols::Symbolize(modules, std::vector<std::uint64_t>{0x15000, 0x5});
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].module, 0);
  EXPECT_TRUE(found[0].function.empty());
  EXPECT_EQ(found[1].module, -1);
}

}  // namespace
}  // namespace gpuscope
