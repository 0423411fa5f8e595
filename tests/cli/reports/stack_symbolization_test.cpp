// The run's symbolization step (stack_symbolization.h) on reports as a `--backtrace` run of this
// test binary records them: its own native frames named once, Python frames untouched, and a
// report without stacks left as it is.
#include "cli/reports/stack_symbolization.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "../../support/stacks_report.h"
#include "store/stack_tables.h"

namespace gpuscope {
namespace {

using testing::OpenReport;
using testing::StackStoreTest;

TEST_F(StackStoreTest, TheRunsSymbolizationStepNamesTheNativeFramesOnce) {
  const std::string path = Build();
  ASSERT_TRUE(cli::SymbolizeStacks(path).ok());
  std::unique_ptr<store::ReportReader> report = OpenReport(path);
  ASSERT_NE(report, nullptr);
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report);
  ASSERT_TRUE(stacks.ok());
  const std::vector<store::StoredFrame>& native = stacks->at(2);
  EXPECT_NE(native[0].function.find("CaptureHere"), std::string::npos) << native[0].function;
  EXPECT_TRUE(native[0].module.ends_with("cli_tests")) << native[0].module;
  EXPECT_EQ(stacks->at(1)[0].function, "train_step");  // Python frames untouched
  StatusOr<store::UnsymbolizedFrames> pending = store::ReadUnsymbolizedFrames(*report);
  ASSERT_TRUE(pending.ok());
  EXPECT_TRUE(pending->addresses.empty());  // meta.stacks_symbolized
  report.reset();
  EXPECT_TRUE(cli::SymbolizeStacks(path).ok());  // nothing left to do
}

TEST(StackStore, AReportWithoutStacksHasNone) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("plain.sqlite");
  store::testing::ReportBuilder report(path);
  report.Api("cudaMalloc", 1, 2, 3);
  ASSERT_TRUE(report.Close().ok());
  std::unique_ptr<store::ReportReader> reader = OpenReport(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(store::ReadStacks(*reader)->empty());
  EXPECT_TRUE(store::ReadUnsymbolizedFrames(*reader)->addresses.empty());
  reader.reset();
  EXPECT_TRUE(cli::SymbolizeStacks(path).ok());
}

}  // namespace
}  // namespace gpuscope
