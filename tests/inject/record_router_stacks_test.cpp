// The writer thread's side of `--backtrace` with the production router and writer: an API
// record gets the stack its enter callback took (matched by correlation id), the new stacks and
// the module map are written at the commit, and a call without a stack keeps NULL.
#include <gtest/gtest.h>

#include <memory>

#include "inject/call_stacks.h"
#include "inject/record_router.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/stack_tables.h"
#include "store/testing/sample_records.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope {
namespace {

TEST(RecordRouterStacks, ApiCallsGetTheirStackAndTheStacksAndModulesAreWritten) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("router.sqlite");
  {
    StatusOr<std::unique_ptr<store::ReportWriter>> writer =
        store::ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok()) << writer.status().message();
    inject::CallStacks stacks;  // no CPython in this test: native frames
    inject::RecordRouter router(**writer, {}, nullptr, &stacks);
    model::ApiCallRecord launch = store::testing::SampleApiCall(0);
    launch.stack_id = 0;
    stacks.Capture(launch.correlation_id);  // the enter callback
    router.OnApiCall(launch);
    model::ApiCallRecord other = store::testing::SampleApiCall(3);
    other.stack_id = 0;
    router.OnApiCall(other);  // no stack taken for it
    router.Finish();
    ASSERT_TRUE((*writer)->Close().ok());
  }
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();
  std::vector<std::uint32_t> ids;
  ASSERT_TRUE((*report)
                  ->ForEachApiCall([&](const store::ApiCallRow& row) {
                    ids.push_back(row.record.stack_id);
                    return true;
                  })
                  .ok());
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{1, 0}));
  StatusOr<store::StoredStacks> stored = store::ReadStacks(**report);
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(stored->size(), 1u);
  EXPECT_FALSE(stored->at(1).empty());
  EXPECT_EQ(stored->at(1)[0].kind, model::FrameKind::kNative);
  StatusOr<store::UnsymbolizedFrames> pending = store::ReadUnsymbolizedFrames(**report);
  ASSERT_TRUE(pending.ok());
  EXPECT_FALSE(pending->modules.empty());
  EXPECT_EQ((*report)->counters().stacks_dropped, 0u);
}

}  // namespace
}  // namespace gpuscope
