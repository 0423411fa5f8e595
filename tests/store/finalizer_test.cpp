#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

TEST(Finalizer, IsIdempotentAndLeavesOneFile) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    writer.value()->OnKernel(testing::SampleKernel(0));
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  // A cleanly closed report is already one file; finalizing (twice) changes nothing.
  EXPECT_FALSE(test::FileExists(path + "-wal"));
  ASSERT_TRUE(FinalizeReport(path).ok());
  ASSERT_TRUE(FinalizeReport(path).ok());
  EXPECT_FALSE(test::FileExists(path + "-wal"));
  EXPECT_FALSE(test::FileExists(path + "-shm"));
  EXPECT_FALSE(test::FileExists(path + "-journal"));
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok());
  EXPECT_TRUE(reader.value()->finalized());
  EXPECT_EQ(reader.value()->closed_by_writer(), std::optional<bool>(true));
  EXPECT_EQ(reader.value()->CountRows("kernels").value(), 1u);
}

TEST(Finalizer, AReportWithoutClosedByWriterReadsAsUnknown) {
  // Reports of gpuscope versions before meta.closed_by_writer (same schema version).
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  test::ExecSql(path, "DELETE FROM meta WHERE key = 'closed_by_writer'");
  ASSERT_TRUE(FinalizeReport(path).ok());
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_EQ(reader.value()->closed_by_writer(), std::nullopt);
}

TEST(Finalizer, MissingFile) {
  test::TempDir dir;
  std::string path = dir.File("absent.sqlite");
  Status status = FinalizeReport(path);
  EXPECT_EQ(status.message(), "cannot finalize report " + path + ": no such file");
  EXPECT_FALSE(test::FileExists(path));  // and it did not create one
}

TEST(Finalizer, LeavesForeignDatabasesAlone) {
  test::TempDir dir;
  std::string path = dir.File("other.sqlite");
  test::ExecSql(path, "PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1)");
  Status status = FinalizeReport(path);
  EXPECT_EQ(status.message(), "cannot finalize report " + path + ": not a gpuscope report");
  EXPECT_EQ(test::QueryText(path, "PRAGMA journal_mode"), "wal");
}

TEST(Finalizer, NotSQLite) {
  test::TempDir dir;
  std::string path = dir.File("text.sqlite");
  test::WriteFileBytes(path, {'h', 'e', 'l', 'l', 'o'});
  EXPECT_EQ(FinalizeReport(path).message(),
            "cannot finalize report " + path + ": not a gpuscope report (not an SQLite database)");
}

}  // namespace
}  // namespace gpuscope::store
