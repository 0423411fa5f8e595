// Native stacks from this test's own frames: captured, deduplicated, and symbolized with
// elfutils from the module map the injection records (the test binary is built with -g).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "inject/module_map.h"
#include "inject/native_frames.h"
#include "inject/stack_table.h"
#include "symbols/native_symbols.h"

namespace gpuscope {
namespace {

using inject::CapturedFrame;

std::vector<CapturedFrame> Captured(const std::uint64_t* addresses, std::size_t count) {
  std::vector<CapturedFrame> frames;
  for (std::size_t i = 0; i < count; ++i) frames.push_back({addresses[i], nullptr, 0});
  return frames;
}

// Two distinct call sites of one capturing function. The line of each call is recorded.
int g_first_call_line = 0;
int g_second_call_line = 0;

[[gnu::noinline]] std::vector<CapturedFrame> CaptureHere() {
  std::array<std::uint64_t, 64> addresses{};
  const std::size_t count = inject::CaptureNativeFrames(addresses.data(), addresses.size(), 0);
  return Captured(addresses.data(), count);
}

[[gnu::noinline]] std::vector<CapturedFrame> FirstCallSite() {
  g_first_call_line = __LINE__ + 1;
  std::vector<CapturedFrame> frames = CaptureHere();
  asm volatile("");  // keeps the call from becoming a tail call
  return frames;
}

[[gnu::noinline]] std::vector<CapturedFrame> SecondCallSite() {
  g_second_call_line = __LINE__ + 1;
  std::vector<CapturedFrame> frames = CaptureHere();
  asm volatile("");
  return frames;
}

TEST(NativeCapture, TheSameCallSiteGivesTheSameStackAndAnotherSiteAnother) {
  std::vector<std::vector<CapturedFrame>> stacks;
  volatile int calls = 2;  // a loop the compiler cannot unroll into two call sites
#pragma GCC unroll 1
  for (int i = 0; i < calls; ++i) stacks.push_back(FirstCallSite());
  stacks.push_back(SecondCallSite());
  ASSERT_GE(stacks[0].size(), 3u);
  EXPECT_EQ(stacks[0], stacks[1]);
  EXPECT_NE(stacks[0][1].address, stacks[2][1].address);  // the caller's return address

  inject::StackTable table(16);
  const std::uint32_t first = table.Intern(stacks[0]);
  const std::uint32_t again = table.Intern(stacks[1]);
  const std::uint32_t second = table.Intern(stacks[2]);
  EXPECT_EQ(first, 1u);
  EXPECT_EQ(again, first);
  EXPECT_EQ(second, 2u);
  std::vector<inject::NewStack> fresh = table.TakeNew();
  ASSERT_EQ(fresh.size(), 2u);  // each stack once
  EXPECT_EQ(fresh[0].id, first);
  EXPECT_EQ(fresh[0].frames.size(), stacks[0].size());
  EXPECT_EQ(fresh[0].frames[1].address, stacks[0][1].address);
  EXPECT_EQ(fresh[0].frames[1].kind, model::FrameKind::kNative);
  EXPECT_TRUE(table.TakeNew().empty());  // written once
  EXPECT_EQ(table.Intern(stacks[2]), second);
  EXPECT_TRUE(table.TakeNew().empty());
}

TEST(NativeCapture, AFullTableGivesNoIdAndKeepsTheKnownOnes) {
  inject::StackTable table(1);
  const std::vector<CapturedFrame> a = FirstCallSite();
  const std::vector<CapturedFrame> b = SecondCallSite();
  EXPECT_EQ(table.Intern(a), 1u);
  EXPECT_EQ(table.Intern(b), 0u);
  EXPECT_EQ(table.Intern(a), 1u);
}

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
  EXPECT_TRUE(found[1].file.ends_with("native_capture_test.cpp")) << found[1].file;
  EXPECT_EQ(found[1].line, static_cast<std::uint32_t>(g_first_call_line));
  ASSERT_GE(found[1].module, 0);
  EXPECT_TRUE(modules[found[1].module].path.ends_with("backtrace_tests"))
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

TEST(ModuleMap, NamesThisProgramWithItsBuildIdAndLibraries) {
  std::vector<inject::LoadedModule> modules = inject::LoadedModules();
  ASSERT_GE(modules.size(), 2u);
  EXPECT_TRUE(modules[0].path.ends_with("backtrace_tests")) << modules[0].path;
  EXPECT_LT(modules[0].start, modules[0].end);
  const auto here = reinterpret_cast<std::uint64_t>(&CaptureHere);
  EXPECT_TRUE(here >= modules[0].start && here < modules[0].end);
  EXPECT_EQ(modules[0].build_id.size(), 40u);  // SHA-1, as Debian's linker makes it
  bool libc = false;
  for (const inject::LoadedModule& module : modules) {
    libc = libc || module.path.find("libc.so") != std::string::npos;
  }
  EXPECT_TRUE(libc);
}

}  // namespace
}  // namespace gpuscope
