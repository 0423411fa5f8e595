// FindStickyErrorCalls on a report recorded on the H200, with sticky error codes planted in
// its API calls: the first outermost call that returned one is named, with its time, thread and
// the number of calls that failed with a sticky error.
#include "store/sticky_error_calls.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "store/report_reader.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

class StickyErrorCallsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_.File("h100_add.sqlite");
    std::filesystem::copy_file(std::string(GPUSCOPE_TEST_DATA_DIR) +
                                   "/reports/legacy/h200_add_2026-11-21.sqlite",
                               path_);
  }

  // Sets the return value of the API call named `name` (the first such call).
  void Plant(const std::string& name, int code) {
    test::ExecSql(path_, "UPDATE api_calls SET return_value = " + std::to_string(code) +
                             " WHERE id = (SELECT a.id FROM api_calls a JOIN strings s ON "
                             "s.id = a.name_id WHERE s.value = '" + name +
                             "' ORDER BY a.start LIMIT 1)");
  }

  StatusOr<std::optional<StickyErrorCalls>> Find() {
    auto reader = ReportReader::Open(path_);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    if (!reader.ok()) return reader.status();
    time_base_ = (*reader)->time_base();
    return FindStickyErrorCalls(**reader);
  }

  test::TempDir dir_;
  std::string path_;
  model::Timestamp time_base_ = 0;
};

TEST_F(StickyErrorCallsTest, ARunWithoutStickyErrorsHasNone) {
  Plant("cudaMalloc", 2);  // cudaErrorMemoryAllocation: an error, not a sticky one
  auto found = Find();
  ASSERT_TRUE(found.ok()) << found.status().message();
  EXPECT_FALSE(found->has_value());
}

TEST_F(StickyErrorCallsTest, NamesTheFirstOutermostCallAndCountsTheFailures) {
  // In time order: cuLibraryLoadData (a driver call nested in the launch), cudaLaunchKernel,
  // cudaMemcpy, cudaFree.
  Plant("cuLibraryLoadData", 700);  // nested in a runtime call: the runtime call is the one seen
  Plant("cudaMemcpy", 700);
  Plant("cudaFree", 700);
  auto found = Find();
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_TRUE(found->has_value());
  const StickyErrorCalls& calls = **found;
  EXPECT_EQ(calls.first_call, "cudaMemcpy");
  EXPECT_EQ(calls.domain, model::ApiDomain::kRuntime);
  EXPECT_EQ(calls.code, 700);
  EXPECT_EQ(calls.failed_calls, 2u);
  const std::int64_t stored_start = test::QueryInt(
      path_, "SELECT a.start FROM api_calls a JOIN strings s ON s.id = a.name_id WHERE "
             "s.value = 'cudaMemcpy'");
  EXPECT_EQ(calls.start, time_base_ + static_cast<model::Timestamp>(stored_start));
  EXPECT_EQ(calls.thread_id,
            static_cast<std::uint32_t>(test::QueryInt(
                path_, "SELECT a.thread_id FROM api_calls a JOIN strings s ON s.id = a.name_id "
                       "WHERE s.value = 'cudaMemcpy'")));
}

TEST_F(StickyErrorCallsTest, ACallWithoutAStartIsCountedButNotNamedFirst) {
  Plant("cudaLaunchKernel", 710);
  Plant("cudaFree", 719);
  test::ExecSql(path_, "UPDATE api_calls SET start = NULL WHERE return_value = 710");
  auto found = Find();
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->first_call, "cudaFree");
  EXPECT_EQ((*found)->code, 719);
  EXPECT_EQ((*found)->failed_calls, 2u);
}

}  // namespace
}  // namespace gpuscope::store
