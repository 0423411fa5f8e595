// Stacks through the real writer and reader: Python frames with their names, native frames
// with their addresses, the module map, api_calls.stack_id (NULL for calls without one), and
// the native frames symbolized after the run by the CLI's step, with this test binary's own
// frames and modules, as a `--backtrace` run of it would record them.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <vector>

#include "cli/reports/stack_symbolization.h"
#include "inject/module_map.h"
#include "inject/native_frames.h"
#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/stack_tables.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope {
namespace {

using model::FrameKind;
using model::StackFrame;

std::unique_ptr<store::ReportReader> Open(const std::string& path) {
  StatusOr<std::unique_ptr<store::ReportReader>> reader = store::ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  return reader.ok() ? std::move(*reader) : nullptr;
}

[[gnu::noinline]] std::vector<std::uint64_t> OwnReturnAddresses() {
  std::array<std::uint64_t, 32> addresses{};
  const std::size_t count = inject::CaptureNativeFrames(addresses.data(), addresses.size(), 0);
  return {addresses.begin(), addresses.begin() + count};
}

class StackStoreTest : public ::testing::Test {
 protected:
  std::string Build() {
    const std::string path = dir_.File("stacks.sqlite");
    store::testing::ReportBuilder report(path);
    python_ = {{FrameKind::kPython, 0, "/home/me/train.py", "train_step", 42},
               {FrameKind::kPython, 0, "/home/me/train.py", "<module>", 80}};
    for (std::uint64_t address : OwnReturnAddresses()) {
      native_.push_back({FrameKind::kNative, address, {}, {}, 0});
    }
    report.Write(model::StackRecord{1, python_.data(), python_.size()});
    report.Write(model::StackRecord{2, native_.data(), native_.size()});
    modules_ = inject::LoadedModules();
    for (const inject::LoadedModule& m : modules_) {
      report.Write(model::ModuleRecord{m.path, m.start, m.end, m.bias, m.build_id});
    }
    report.Api("cudaLaunchKernel", 100, 10, 501, {.stack_id = 1});
    report.Api("cudaMemcpy", 200, 10, 502, {.stack_id = 2});
    report.Api("cudaMalloc", 300, 10, 503);
    EXPECT_TRUE(report.Close().ok());
    EXPECT_TRUE(store::FinalizeReport(path).ok());
    return path;
  }

  store::testing::ScratchDir dir_;
  std::vector<StackFrame> python_, native_;
  std::vector<inject::LoadedModule> modules_;
};

TEST_F(StackStoreTest, StacksAndTheCallsStackIdsReadBack) {
  const std::string path = Build();
  std::unique_ptr<store::ReportReader> report = Open(path);
  ASSERT_NE(report, nullptr);
  std::vector<std::uint32_t> ids;
  ASSERT_TRUE(report
                  ->ForEachApiCall([&](const store::ApiCallRow& row) {
                    ids.push_back(row.record.stack_id);
                    return true;
                  })
                  .ok());
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{1, 2, 0}));
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report);
  ASSERT_TRUE(stacks.ok()) << stacks.status().message();
  ASSERT_EQ(stacks->size(), 2u);
  const std::vector<store::StoredFrame>& python = stacks->at(1);
  ASSERT_EQ(python.size(), 2u);
  EXPECT_EQ(python[0].kind, FrameKind::kPython);
  EXPECT_EQ(python[0].file, "/home/me/train.py");
  EXPECT_EQ(python[0].function, "train_step");
  EXPECT_EQ(python[0].line, 42u);
  EXPECT_EQ(python[1].function, "<module>");
  const std::vector<store::StoredFrame>& native = stacks->at(2);
  ASSERT_EQ(native.size(), native_.size());
  EXPECT_EQ(native[0].address, native_[0].address);
  EXPECT_TRUE(native[0].function.empty());  // not symbolized yet

  StatusOr<store::UnsymbolizedFrames> pending = store::ReadUnsymbolizedFrames(*report);
  ASSERT_TRUE(pending.ok());
  EXPECT_EQ(pending->modules.size(), modules_.size());
  EXPECT_EQ(pending->modules[0].path, modules_[0].path);
  EXPECT_EQ(pending->modules[0].build_id, modules_[0].build_id);
  EXPECT_EQ(pending->addresses.size(), native_.size());
  StatusOr<std::vector<store::StoredFrame>> one = store::ReadStack(*report, 1);
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->size(), 2u);
  EXPECT_TRUE(store::ReadStack(*report, 99)->empty());
}

TEST_F(StackStoreTest, TheRunsSymbolizationStepNamesTheNativeFramesOnce) {
  const std::string path = Build();
  ASSERT_TRUE(cli::SymbolizeStacks(path).ok());
  std::unique_ptr<store::ReportReader> report = Open(path);
  ASSERT_NE(report, nullptr);
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report);
  ASSERT_TRUE(stacks.ok());
  const std::vector<store::StoredFrame>& native = stacks->at(2);
  EXPECT_NE(native[0].function.find("OwnReturnAddresses"), std::string::npos) << native[0].function;
  EXPECT_TRUE(native[0].module.ends_with("backtrace_tests")) << native[0].module;
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
  std::unique_ptr<store::ReportReader> reader = Open(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_TRUE(store::ReadStacks(*reader)->empty());
  EXPECT_TRUE(store::ReadUnsymbolizedFrames(*reader)->addresses.empty());
  reader.reset();
  EXPECT_TRUE(cli::SymbolizeStacks(path).ok());
}

// A report recorded on the H200 before call stacks (schema version 1): its API calls read with
// no stack (the reader selects NULL for the column it lacks), and it has no stacks.
TEST(StackStore, ReportsOlderThanStacksReadWithoutThem) {
  std::unique_ptr<store::ReportReader> reader =
      Open(std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_add.sqlite");
  ASSERT_NE(reader, nullptr);
  int calls = 0;
  ASSERT_TRUE(reader
                  ->ForEachApiCall([&](const store::ApiCallRow& row) {
                    EXPECT_EQ(row.record.stack_id, 0u);
                    ++calls;
                    return true;
                  })
                  .ok());
  EXPECT_GT(calls, 0);
  EXPECT_TRUE(store::ReadStacks(*reader)->empty());
  EXPECT_TRUE(store::ReadUnsymbolizedFrames(*reader)->addresses.empty());
}

}  // namespace
}  // namespace gpuscope
