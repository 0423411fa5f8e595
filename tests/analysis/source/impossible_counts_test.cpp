// Source counter values that cannot be true (analysis/value_range.h: CheckStoredCount) are left
// out of the source page and counted: a count above 2^53. The report is written by the real
// writer; a count stored as -5 (the model's unsigned 2^64 - 5) is left out by the store's reader
// already, so it is not shown and not counted here.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "analysis/source/source_columns.h"
#include "analysis/source/source_view.h"
#include "analysis/value_range.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::source {
namespace {

TEST(SourceCounterRange, ImpossibleCountsAreLeftOutAndCounted) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("counts.sqlite");
  {
    store::testing::ReportBuilder builder(path);
    store::testing::SourceLaunchSpec spec;
    constexpr std::uint64_t kCrc = 77;
    spec.values = {{kCrc, "_Z4workv", 0x10, "smsp__sass_inst_executed", 500},
                   {kCrc, "_Z4workv", 0x20, "smsp__sass_inst_executed", std::uint64_t{1} << 60},
                   {kCrc, "_Z4workv", 0x30, "smsp__sass_inst_executed",
                    static_cast<std::uint64_t>(std::int64_t{-5})},
                   {kCrc, "_Z4workv", 0x40, "smsp__sass_inst_executed", std::uint64_t{1} << 53}};
    builder.ProfiledSourceLaunch(spec);
    ASSERT_TRUE(builder.Close().ok());
  }
  auto reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  ImpossibleValueCounts impossible;
  auto sources = LoadKernelSources(**reader, nullptr, &impossible);
  ASSERT_TRUE(sources.ok()) << sources.status().message();
  ASSERT_EQ(sources->size(), 1u);
  const KernelSource& kernel = sources->begin()->second;
  const std::optional<std::size_t> executed = FindSourceColumn("Instructions Executed");
  ASSERT_TRUE(executed.has_value());
  ASSERT_EQ(kernel.instructions.size(), 2u);  // 0x20 and 0x30 measured nothing possible
  EXPECT_EQ(kernel.instructions[0].pc_offset, 0x10u);
  EXPECT_EQ(kernel.instructions[0].values[*executed], 500u);
  EXPECT_EQ(kernel.instructions[1].pc_offset, 0x40u);  // 2^53 itself can be true
  EXPECT_EQ(kernel.instructions[1].values[*executed], std::uint64_t{1} << 53);
  EXPECT_EQ(impossible.total(), 1u);
  EXPECT_EQ(impossible.count(ImpossibleValue::kCountTooLarge), 1u);
  EXPECT_EQ(ImpossibleValueWarning(impossible, CheckedValues::kSourceCounters),
            "1 source counter value cannot be true (1 count or duration above 2^53): left out");
}

}  // namespace
}  // namespace gpuscope::analysis::source
