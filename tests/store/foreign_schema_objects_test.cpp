// A report holds exactly the schema objects gpuscope creates (store/schema_objects.h): a
// trigger, or a table, view or index of another name, makes the file no gpuscope report. Such
// a trigger ran inside the evaluation's write-back (`stats --page details` on a report whose
// trigger inserted a recursive CTE grew it from 1.8 MB to 830 MB until killed), so both the
// reader and the write connection (ReportUpdate) refuse it, and the write connection is
// hardened like the readers'.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "store/report_update.h"
#include "store_test_util.h"
#include "test_reports.h"

namespace gpuscope::store {
namespace {

using Clock = std::chrono::steady_clock;

const std::string kReports = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports";

// A trigger that would leave a mark if it ran.
std::string MarkingTrigger(const std::string& name, const std::string& when_on) {
  return "CREATE TRIGGER " + name + " " + when_on +
         " BEGIN INSERT OR REPLACE INTO meta(key, value) VALUES ('trigger_ran', 'yes'); END";
}

// The H100 recording of `--set full` (every profile and source table) with `sql` run on it.
std::string RecordedWith(const test::TempDir& dir, const std::string& sql) {
  const std::string path = dir.File("r.sqlite");
  std::filesystem::copy_file(kReports + "/h100_metrics_full.sqlite", path,
                             std::filesystem::copy_options::overwrite_existing);
  test::ExecSql(path, sql);
  return path;
}

std::string OpenError(const std::string& path) {
  auto reader = ReportReader::Open(path);
  if (reader.ok()) return "accepted";
  return reader.status().message();
}

TEST(ForeignSchemaObjects, ATriggerOnAnyTableIsRefusedOnOpen) {
  const std::vector<std::pair<std::string, std::string>> triggers = {
      {"grow", "AFTER INSERT ON kernel_metrics"},
      {"lines", "BEFORE INSERT ON sass_instructions"},
      {"edit", "AFTER UPDATE ON kernels"},
      {"gone", "AFTER DELETE ON meta"},
  };
  for (const auto& [name, when_on] : triggers) {
    test::TempDir dir;
    const std::string path = RecordedWith(dir, MarkingTrigger(name, when_on));
    const std::string table = when_on.substr(when_on.rfind(' ') + 1);
    EXPECT_EQ(OpenError(path), "cannot open report " + path +
                                   ": not a gpuscope report (it has a "
                                   "trigger `" +
                                   name + "` on " + table + ", which gpuscope never creates)");
  }
}

TEST(ForeignSchemaObjects, AnUnknownTableViewOrIndexIsRefusedOnOpen) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE TABLE notes (text TEXT)", "a table `notes`"},
      {"CREATE VIEW slow AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
       "SELECT n FROM r",
       "a view `slow`"},
      {"CREATE INDEX by_name ON kernel_metrics(metric)", "an index `by_name` on kernel_metrics"},
      {"CREATE INDEX by_start ON kernels(start) WHERE start > 0", "an index `by_start` on kernels"},
  };
  for (const auto& [sql, object] : cases) {
    test::TempDir dir;
    const std::string path = RecordedWith(dir, sql);
    EXPECT_EQ(OpenError(path), "cannot open report " + path + ": not a gpuscope report (it has " +
                                   object + ", which gpuscope never creates)");
  }
}

// What gpuscope writes and what it wrote before (schema versions 1 to 4) is accepted: the
// refusal must not cost a single legitimate report.
TEST(ForeignSchemaObjects, EveryReportGpuscopeWritesIsAccepted) {
  std::vector<std::string> paths;
  for (const char* folder : {"", "/legacy"}) {
    for (const auto& entry : std::filesystem::directory_iterator(kReports + folder)) {
      if (entry.path().extension() == ".sqlite") paths.push_back(entry.path().string());
    }
  }
  ASSERT_GE(paths.size(), 6u);
  test::TempDir dir;
  paths.push_back(dir.File("synthetic.sqlite"));
  exporter::testing::WriteSyntheticReport(paths.back(), 10);
  for (const std::string& path : paths) {
    auto reader = ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
  }
}

// The write-back checks again under its write lock: a trigger added after the report was read
// (or a caller that never read it) finds the report refused and unchanged.
TEST(ForeignSchemaObjects, TheWriteConnectionRefusesATriggerAndRunsNothing) {
  test::TempDir dir;
  const std::string path =
      RecordedWith(dir, MarkingTrigger("grow", "AFTER INSERT ON kernel_metrics"));
  const std::vector<char> before = test::ReadFileBytes(path);
  auto update = ReportUpdate::Begin(path, "cannot store the metrics in " + path);
  ASSERT_FALSE(update.ok());
  EXPECT_EQ(update.status().message(),
            "cannot store the metrics in " + path +
                ": not a gpuscope report (it has a trigger `grow` on kernel_metrics, which "
                "gpuscope never creates)");
  EXPECT_TRUE(test::ReadFileBytes(path) == before) << "the report was changed";
  EXPECT_FALSE(test::FileExists(path + "-journal"));
}

int DbConfig(sqlite3* db, int option) {
  int value = -1;
  sqlite3_db_config(db, option, -1, &value);
  return value;
}

// The settings of the readers' connections (hostile_file_guard.h), and triggers off.
TEST(HardenedWriteConnection, HasTheReadersSettingsAndNoTriggers) {
  test::TempDir dir;
  const std::string path = RecordedWith(dir, "");
  auto update = ReportUpdate::Begin(path, "cannot store");
  ASSERT_TRUE(update.ok()) << update.status().message();
  sqlite3* db = (*update)->db();
  EXPECT_EQ(DbConfig(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA), 0);
  EXPECT_EQ(DbConfig(db, SQLITE_DBCONFIG_DEFENSIVE), 1);
  EXPECT_EQ(DbConfig(db, SQLITE_DBCONFIG_DQS_DML), 0);
  EXPECT_EQ(DbConfig(db, SQLITE_DBCONFIG_DQS_DDL), 0);
  EXPECT_EQ(DbConfig(db, SQLITE_DBCONFIG_ENABLE_TRIGGER), 0);
}

// A statement that would never end becomes an error, and the transaction is rolled back:
// nothing is left for the next reader to trip over (no hot journal, no grown file).
TEST(HardenedWriteConnection, AStatementThatNeverEndsIsStopped) {
  test::TempDir dir;
  // Small: each statement's budget grows with the file (hostile_file_guard.h).
  const std::string path = dir.File("small.sqlite");
  exporter::testing::WriteSyntheticReport(path, 10);
  const std::uint64_t size = test::FileSize(path);
  {
    auto update = ReportUpdate::Begin(path, "cannot store");
    ASSERT_TRUE(update.ok()) << update.status().message();
    const Clock::time_point start = Clock::now();
    const int rc =
        sqlite3_exec((*update)->db(),
                     "INSERT INTO kernel_metrics(profiled_kernel_id, metric, value, unit) "
                     "WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                     "SELECT 1, 'm' || n, n, '' FROM r",
                     nullptr, nullptr, nullptr);
    EXPECT_EQ(rc, SQLITE_INTERRUPT) << sqlite3_errmsg((*update)->db());
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(30));
  }
  EXPECT_FALSE(test::FileExists(path + "-journal"));
  EXPECT_LE(test::FileSize(path), size);
  auto reader = ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
}

}  // namespace
}  // namespace gpuscope::store
