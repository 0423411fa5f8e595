// store::IsGpuscopeReport: what the commands that write other files protect from a mistyped
// output path (cli/output/output_claim.h).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "store/report_file_check.h"
#include "store/testing/synthetic_trace.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

TEST(ReportIdentity, AReportIsOneAndOtherFilesAreNot) {
  test::TempDir dir;
  std::string report = dir.File("real.sqlite");
  testing::SyntheticTraceOptions options;
  options.kernels = 10;
  ASSERT_TRUE(testing::WriteSyntheticReport(report, options).ok());
  EXPECT_TRUE(IsGpuscopeReport(report));

  std::string other_database = dir.File("other.sqlite");
  test::ExecSql(other_database, "CREATE TABLE t(x)");
  EXPECT_FALSE(IsGpuscopeReport(other_database));
  std::string text = dir.File("notes.txt");
  test::WriteFileBytes(text, {'h', 'i', '\n'});
  EXPECT_FALSE(IsGpuscopeReport(text));
  EXPECT_FALSE(IsGpuscopeReport(dir.File("missing.sqlite")));
  EXPECT_FALSE(IsGpuscopeReport(dir.path()));
}

// A report still being written is in WAL mode: its application_id may not have reached the
// main file yet, so an SQLite file with a -wal companion counts as a report.
TEST(ReportIdentity, AnSqliteFileWithAWriteAheadLogIsTakenForAReportInProgress) {
  test::TempDir dir;
  std::string database = dir.File("in_progress.sqlite");
  test::ExecSql(database, "CREATE TABLE t(x)");
  ASSERT_FALSE(IsGpuscopeReport(database));
  test::WriteFileBytes(database + "-wal", {});
  EXPECT_TRUE(IsGpuscopeReport(database));
}

}  // namespace
}  // namespace gpuscope::store
