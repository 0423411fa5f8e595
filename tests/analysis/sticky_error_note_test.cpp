// The sticky-error line that readers print first: its wording, and that CollectionWarnings
// puts it before the losses of a recorded report where a call returned cudaErrorIllegalAddress.
#include "analysis/sticky_error_note.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>

#include "analysis/collection_warnings.h"
#include "store/report_reader.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis {
namespace {

void ExecSql(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error != nullptr ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

TEST(StickyErrorNote, NamesTheCallTheErrorItsMeaningTheTimeAndTheOthers) {
  store::StickyErrorCalls calls;
  calls.first_call = "cudaDeviceSynchronize";
  calls.code = 700;
  calls.start = 1'212'450'000;
  calls.thread_id = 4242;
  calls.failed_calls = 3;
  EXPECT_EQ(StickyErrorNote(calls, 1'000'000'000),
            "cudaDeviceSynchronize returned cudaErrorIllegalAddress (a kernel accessed an "
            "illegal memory address) 212.45ms after tracing began, on thread 4242: a sticky "
            "error, the CUDA context was unusable from then on (3 calls failed with it)");
}

TEST(StickyErrorNote, DriverNamesAndNoTimeWithoutATracingStart) {
  store::StickyErrorCalls calls;
  calls.first_call = "cuCtxSynchronize";
  calls.domain = model::ApiDomain::kDriver;
  calls.code = 710;
  calls.start = 5;
  calls.thread_id = 7;
  calls.failed_calls = 1;
  EXPECT_EQ(StickyErrorNote(calls, 0),
            "cuCtxSynchronize returned CUDA_ERROR_ASSERT (a device-side assert failed), on "
            "thread 7: a sticky error, the CUDA context was unusable from then on");
}

TEST(StickyErrorNote, ComesFirstAmongARecordedReportsWarnings) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("h100_add.sqlite");
  std::filesystem::copy_file(std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_add.sqlite",
                             path);
  auto before = store::ReportReader::Open(path);
  ASSERT_TRUE(before.ok()) << before.status().message();
  const std::size_t warnings_before = CollectionWarnings(**before).size();
  before->reset();

  ExecSql(path, "UPDATE api_calls SET return_value = 700 WHERE name_id = (SELECT id FROM strings "
                "WHERE value = 'cudaMemcpy')");
  auto reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> warnings = CollectionWarnings(**reader);
  ASSERT_EQ(warnings.size(), warnings_before + 1);
  EXPECT_EQ(warnings[0].rfind("cudaMemcpy returned cudaErrorIllegalAddress (a kernel accessed an "
                              "illegal memory address) ",
                              0),
            0u)
      << warnings[0];
}

}  // namespace
}  // namespace gpuscope::analysis
