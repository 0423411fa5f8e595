// Native stacks from this test's own frames: captured and deduplicated, and the module map the
// injection records. Their symbolization is tests/symbols.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../support/own_native_frames.h"
#include "inject/module_map.h"
#include "inject/stack_table.h"

namespace gpuscope {
namespace {

using inject::CapturedFrame;
using testing::CaptureHere;
using testing::FirstCallSite;
using testing::SecondCallSite;

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
