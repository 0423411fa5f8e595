// A report the reader may not write (a read-only file, a read-only directory) whose counter
// data or source counters were never evaluated: the commands that evaluate before they show
// (`stats --page details|source`, `source`, `report`) show the results all the same, computed
// in memory, and say once that they were not stored. They exited 1 with nothing printed.
#include <gtest/gtest.h>
#include <linux/securebits.h>
#include <sys/prctl.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../store/without_permission_override.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RecordedReport;
using testing::RunGpuscope;
using testing::TempDir;

// What the evaluation stores, taken out of the H100 recording of `--set full`.
constexpr const char* kUnevaluate =
    "DELETE FROM kernel_metrics; DELETE FROM kernel_findings; DELETE FROM sass_instructions; "
    "DELETE FROM source_files";

std::string UnevaluatedCopy(const std::string& path) {
  std::filesystem::copy_file(RecordedReport("h100_metrics_full.sqlite"), path,
                             std::filesystem::copy_options::overwrite_existing);
  exporter::testing::ExecSql(path, kUnevaluate);
  return path;
}

// `gpuscope args...` without root's permission override (NOROOT keeps exec from giving it
// back), so that the file's and directory's modes apply as root too.
Finished RunUnprivileged(const std::vector<std::string>& args) {
  const std::string packed = test_support::RunWithoutPermissionOverride([&] {
    prctl(PR_SET_SECUREBITS, SECBIT_NOROOT);
    const Finished run = RunGpuscope(args);
    return std::to_string(run.exit_code) + "\n" + std::to_string(run.err.size()) + "\n" + run.err +
           run.out;
  });
  Finished run;
  const std::size_t first = packed.find('\n');
  const std::size_t second = packed.find('\n', first + 1);
  if (first == std::string::npos || second == std::string::npos) {
    ADD_FAILURE() << packed;
    return run;
  }
  run.exit_code = std::stoi(packed.substr(0, first));
  const std::size_t err_size = std::stoul(packed.substr(first + 1, second - first - 1));
  run.err = packed.substr(second + 1, err_size);
  run.out = packed.substr(second + 1 + err_size);
  return run;
}

// The output of `args` (with REPORT for the report) on a writable unevaluated copy, which
// stores its evaluation: what the read-only report must show too.
std::string OutputOnWritableCopy(const TempDir& dir, std::vector<std::string> args) {
  const std::string writable = UnevaluatedCopy(dir.File("writable.sqlite"));
  for (std::string& arg : args) {
    if (arg == "REPORT") arg = writable;
  }
  const Finished run = RunGpuscope(args);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.err.find("the results are shown all the same"), std::string::npos) << run.err;
  return run.out;
}

// Exit 0, the same output as where the evaluation could be stored, and one line saying it
// was not; the report unchanged.
void ExpectShownNotStored(const TempDir& dir, const std::string& report,
                          const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  std::string expected = OutputOnWritableCopy(dir, args);
  for (std::string& arg : args) {
    if (arg == "REPORT") arg = report;
  }
  const std::string before = testing::ReadWholeFile(report);
  const Finished run = RunUnprivileged(args);
  EXPECT_EQ(run.exit_code, 0) << command[0] << " " << command[1] << ": " << run.err;
  EXPECT_FALSE(run.out.empty());
  EXPECT_TRUE(run.out == expected)
      << command[0] << " " << command[1] << ": the output differs from the stored evaluation's";
  std::size_t not_stored = 0;
  for (std::size_t at = run.err.find("the results are shown all the same"); at != std::string::npos;
       at = run.err.find("the results are shown all the same", at + 1)) {
    ++not_stored;
  }
  EXPECT_EQ(not_stored, 1u) << run.err;
  EXPECT_EQ(run.err.find("gpuscope: error:"), std::string::npos) << run.err;
  EXPECT_TRUE(testing::ReadWholeFile(report) == before) << "the report changed";
}

TEST(ReadOnlyReportBinary, ReadOnlyFileShowsTheDetailsPage) {
  TempDir dir;
  const std::string report = UnevaluatedCopy(dir.File("r.sqlite"));
  ASSERT_EQ(chmod(report.c_str(), 0444), 0);
  ExpectShownNotStored(dir, report, {"stats", "--page", "details", "REPORT"});
}

TEST(ReadOnlyReportBinary, ReadOnlyDirectoryShowsTheDetailsPage) {
  TempDir dir;
  ASSERT_EQ(mkdir(dir.File("locked").c_str(), 0755), 0);
  const std::string report = UnevaluatedCopy(dir.File("locked/r.sqlite"));
  ASSERT_EQ(chmod(dir.File("locked").c_str(), 0555), 0);
  ExpectShownNotStored(dir, report, {"stats", "--page", "details", "REPORT"});
  chmod(dir.File("locked").c_str(), 0755);
}

TEST(ReadOnlyReportBinary, ReadOnlyFileShowsTheSourcePage) {
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"source", "REPORT"},
        std::vector<std::string>{"stats", "--page", "source", "REPORT"}}) {
    TempDir dir;
    const std::string report = UnevaluatedCopy(dir.File("r.sqlite"));
    ASSERT_EQ(chmod(report.c_str(), 0444), 0);
    ExpectShownNotStored(dir, report, command);
  }
}

// The HTML report's kernel pages carry the findings the evaluation made in memory.
TEST(ReadOnlyReportBinary, ReadOnlyFileGivesAnHtmlReportWithFindings) {
  TempDir dir;
  const std::string report = UnevaluatedCopy(dir.File("r.sqlite"));
  ASSERT_EQ(chmod(report.c_str(), 0444), 0);
  const Finished run = RunUnprivileged({"report", "-o", dir.File("r.html"), report});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.err.find("the results are shown all the same"), std::string::npos) << run.err;
  EXPECT_NE(testing::ReadWholeFile(dir.File("r.html")).find("Shared Memory Bank Conflicts"),
            std::string::npos);
}

}  // namespace
}  // namespace gpuscope::cli
