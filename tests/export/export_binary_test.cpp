// `gpuscope export` as a user runs it: files written, exit codes, one-line errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../analysis/json_checker.h"
#include "gpuscope_process.h"
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
