// `gpuscope export` as a user runs it: files written, exit codes, one-line errors.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <algorithm>
#include <fstream>

#include "../support/gpuscope_process.h"
#include "../support/json_checker.h"
#include "test_reports.h"

namespace gpuscope::exporter {
namespace {

using cli::testing::RunGpuscope;
using testing::ReadWholeFile;
using testing::ScratchDir;

class ExportBinaryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    report_ = dir_.File("rich.sqlite");
    testing::WriteRichReport(report_);
  }
  ScratchDir dir_;
  std::string report_;
};

TEST_F(ExportBinaryTest, ChromeTraceGoesNextToTheReportByDefault) {
  auto done = RunGpuscope({"export", "--format", "chrome", report_});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::string json = ReadWholeFile(dir_.File("rich.json"));
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(json, &error).has_value()) << error;
  EXPECT_NE(done.out.find("rich.json"), std::string::npos);
  // The losses are said, not hidden.
  EXPECT_NE(done.err.find("2 events without timestamps"), std::string::npos) << done.err;
}

TEST_F(ExportBinaryTest, ChromeTraceToAChosenFileAndToStdout) {
  auto done = RunGpuscope({"export", "-o", dir_.File("t.json"), report_});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.File("t.json")));
  auto piped = RunGpuscope({"export", "-o", "-", report_});
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(piped.out, &error).has_value()) << error;
}

// The sanitizer's overflow (chrome_trace_test.cpp) through the command: the trace is written,
// and what it leaves out is said.
TEST_F(ExportBinaryTest, EventsWhoseTimesOverflowTheAxisAreSaid) {
  testing::ExecSql(report_,
                   "UPDATE meta SET value = '9223372036854775807' WHERE key = 'time_base_ns';"
                   "UPDATE process SET start = -9223372036854775808;"
                   "UPDATE kernels SET start = 0, \"end\" = 0 WHERE start IS NOT NULL;");
  auto done = RunGpuscope({"export", "-o", "-", report_});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(done.out, &error).has_value()) << error;
  EXPECT_NE(done.err.find("events lie further from the trace's start than its times can say "
                          "(damaged timestamps): their times are clamped to the ends of its axis"),
            std::string::npos)
      << done.err;
}

TEST_F(ExportBinaryTest, CsvWritesADirectoryOfTables) {
  auto done = RunGpuscope({"export", "--format=csv", report_});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.File("rich_csv/kernels.csv")));
  std::string second = dir_.File("other.sqlite");
  testing::WriteRichReport(second);
  auto both = RunGpuscope({"export", "--format", "csv", "-o", dir_.File("out"), report_, second});
  ASSERT_EQ(both.exit_code, 0) << both.err;
  EXPECT_TRUE(std::filesystem::exists(dir_.File("out/rich/api_calls.csv")));
  EXPECT_TRUE(std::filesystem::exists(dir_.File("out/other/api_calls.csv")));
}

std::string CountRows(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  std::string count = sqlite3_step(statement) == SQLITE_ROW
                          ? reinterpret_cast<const char*>(sqlite3_column_text(statement, 0))
                          : "";
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return count;
}

std::size_t CsvDataRows(const std::string& file) {
  std::string text = ReadWholeFile(file);
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) - 1;  // header
}

// gpuscope profile's results are tables like the others: a metric or a finding per row.
TEST_F(ExportBinaryTest, CsvHasTheProfiledKernelsMetricsAndFindings) {
  // A copy whose counter data is evaluated again, so that it holds findings too.
  std::string profiled = dir_.File("profiled.sqlite");
  std::filesystem::copy_file(std::string(GPUSCOPE_TEST_DATA_DIR) +
                                 "/reports/h100_metrics_full.sqlite",
                             profiled);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(profiled.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "DELETE FROM kernel_metrics", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  auto evaluated = RunGpuscope({"stats", "--page", "details", profiled});
  ASSERT_EQ(evaluated.exit_code, 0) << evaluated.err;
  auto done = RunGpuscope({"export", "--format", "csv", "-o", dir_.File("p"), profiled});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::string metrics = CountRows(profiled, "SELECT count(*) FROM kernel_metrics");
  std::string findings = CountRows(profiled, "SELECT count(*) FROM kernel_findings");
  ASSERT_NE(metrics, "0");
  ASSERT_NE(findings, "0");
  EXPECT_EQ(std::to_string(CsvDataRows(dir_.File("p/kernel_metrics.csv"))), metrics);
  EXPECT_EQ(std::to_string(CsvDataRows(dir_.File("p/kernel_findings.csv"))), findings);
  EXPECT_EQ(ReadWholeFile(dir_.File("p/kernel_findings.csv"))
                .rfind("profiled_kernel_id,kernel,invocation,rank,rule_id,severity,", 0),
            0u);
  // A trace-only report has neither table: the files hold the header alone.
  auto traced = RunGpuscope({"export", "--format", "csv", "-o", dir_.File("t"), report_});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_EQ(CsvDataRows(dir_.File("t/kernel_metrics.csv")), 0u);
  EXPECT_EQ(CsvDataRows(dir_.File("t/kernel_findings.csv")), 0u);
}

TEST_F(ExportBinaryTest, ErrorsAreOneLineWithTheDocumentedExitCodes) {
  auto bad_format = RunGpuscope({"export", "--format", "xml", report_});
  EXPECT_EQ(bad_format.exit_code, 2);
  EXPECT_NE(bad_format.err.find("expects chrome or csv"), std::string::npos) << bad_format.err;
  auto no_report = RunGpuscope({"export"});
  EXPECT_EQ(no_report.exit_code, 2);
  std::string junk = dir_.File("junk.sqlite");
  std::ofstream(junk) << "not a report";
  auto bad_report = RunGpuscope({"export", junk});
  EXPECT_EQ(bad_report.exit_code, 1);
  EXPECT_EQ(std::count(bad_report.err.begin(), bad_report.err.end(), '\n'), 1) << bad_report.err;
  EXPECT_NE(bad_report.err.find("junk.sqlite"), std::string::npos);
  auto unwritable = RunGpuscope({"export", "-o", dir_.File("missing/dir/t.json"), report_});
  EXPECT_EQ(unwritable.exit_code, 1);
  auto help = RunGpuscope({"export", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("Usage: gpuscope export"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::exporter
