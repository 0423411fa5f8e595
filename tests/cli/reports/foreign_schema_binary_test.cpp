// The security issue "Reading a report runs its code and writes into it": a report whose
// trigger on kernel_metrics inserted a recursive CTE ran it inside `stats --page details`
// (the evaluation's write-back) until killed, growing the file from 1.8 MB to 830 MB and
// leaving a hot journal that failed every later reader. Every command now refuses a report
// holding a trigger, or any table, view or index gpuscope does not create, with one line, and
// leaves the file as it was. The reports are the H100 recording of `--set full` with its
// evaluation taken out, so that each command would write to them.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RecordedReport;
using testing::RunGpuscope;
using testing::TempDir;

// The recording, unevaluated (metrics, findings, SASS and lines gone), with `sql` run on it.
std::string UnevaluatedWith(const TempDir& dir, const std::string& sql) {
  const std::string path = dir.File("r.sqlite");
  std::filesystem::copy_file(RecordedReport("h100_metrics_full.sqlite"), path,
                             std::filesystem::copy_options::overwrite_existing);
  exporter::testing::ExecSql(path,
                             "DELETE FROM kernel_metrics; DELETE FROM kernel_findings; "
                             "DELETE FROM sass_instructions; DELETE FROM source_files; " +
                                 sql);
  return path;
}

// The commands that evaluate a report before they show it (and so wrote to it), and `stats`.
std::vector<std::vector<std::string>> Readers(const TempDir& dir, const std::string& report) {
  return {{"stats", "--page", "details", report},
          {"stats", "--page", "source", report},
          {"source", report},
          {"report", "-o", dir.File("r.html"), report},
          {"stats", report}};
}

// Each reader refuses `report` with exactly one line naming `object`, and the file is left
// byte for byte as it was.
void ExpectRefusedUnchanged(const TempDir& dir, const std::string& report,
                            const std::string& object) {
  const std::string before = testing::ReadWholeFile(report);
  for (const std::vector<std::string>& args : Readers(dir, report)) {
    const Finished run = RunGpuscope(args);
    EXPECT_EQ(run.exit_code, 1) << args[0] << " " << args[1] << ": " << run.err;
    EXPECT_EQ(run.out, "") << args[0] << " " << args[1];
    EXPECT_EQ(run.err, "gpuscope: error: cannot open report " + report +
                           ": not a gpuscope report (it has " + object +
                           ", which gpuscope never creates)\n")
        << args[0] << " " << args[1];
  }
  EXPECT_TRUE(testing::ReadWholeFile(report) == before) << "the report was written to";
  EXPECT_FALSE(testing::FileExists(report + "-journal"));
  EXPECT_FALSE(testing::FileExists(dir.File("r.html")));
}

TEST(ForeignSchemaBinary, ATriggerOnKernelMetricsIsRefusedAndNeverRuns) {
  TempDir dir;
  const std::string report =
      UnevaluatedWith(dir,
                      "CREATE TRIGGER grow AFTER INSERT ON kernel_metrics BEGIN "
                      "INSERT OR REPLACE INTO meta(key, value) VALUES ('trigger_ran', 'yes'); END");
  ExpectRefusedUnchanged(dir, report, "a trigger `grow` on kernel_metrics");
}

TEST(ForeignSchemaBinary, ATriggerOnSassInstructionsIsRefusedAndNeverRuns) {
  TempDir dir;
  const std::string report =
      UnevaluatedWith(dir,
                      "CREATE TRIGGER lines BEFORE INSERT ON sass_instructions BEGIN "
                      "INSERT OR REPLACE INTO meta(key, value) VALUES ('trigger_ran', 'yes'); END");
  ExpectRefusedUnchanged(dir, report, "a trigger `lines` on sass_instructions");
}

// Any table: gpuscope never writes `kernels` after the run, yet the file is no report of its.
TEST(ForeignSchemaBinary, ATriggerOnAnyTableIsRefused) {
  TempDir dir;
  const std::string report =
      UnevaluatedWith(dir, "CREATE TRIGGER edit AFTER UPDATE ON kernels BEGIN SELECT 1; END");
  ExpectRefusedUnchanged(dir, report, "a trigger `edit` on kernels");
}

TEST(ForeignSchemaBinary, AnUnknownViewTableOrIndexIsRefused) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"CREATE VIEW slow AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
       "SELECT n FROM r",
       "a view `slow`"},
      {"CREATE TABLE notes (text TEXT)", "a table `notes`"},
      {"CREATE INDEX by_metric ON kernel_metrics(metric)",
       "an index `by_metric` on kernel_metrics"},
  };
  for (const auto& [sql, object] : cases) {
    TempDir dir;
    ExpectRefusedUnchanged(dir, UnevaluatedWith(dir, sql), object);
  }
}

}  // namespace
}  // namespace gpuscope::cli
