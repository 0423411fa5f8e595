// Stacks through the real writer and reader: Python frames with their names, native frames
// with their addresses, the module map and api_calls.stack_id (NULL for calls without one),
// with this test binary's own frames and modules, as a `--backtrace` run of it would record
// them; and a report older than stacks. Their symbolization after the run: tests/cli.
#include "store/stack_tables.h"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "../support/stacks_report.h"

namespace gpuscope {
namespace {

using model::FrameKind;
using testing::OpenReport;
using testing::StackStoreTest;

TEST_F(StackStoreTest, StacksAndTheCallsStackIdsReadBack) {
  const std::string path = Build();
  std::unique_ptr<store::ReportReader> report = OpenReport(path);
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

// A report recorded on the H200 before call stacks (schema version 1): its API calls read with
// no stack (the reader selects NULL for the column it lacks), and it has no stacks.
TEST(StackStore, ReportsOlderThanStacksReadWithoutThem) {
  std::unique_ptr<store::ReportReader> reader =
      OpenReport(std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_add.sqlite");
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
