// `gpuscope stats` end to end, through the real binary, on reports written by the real
// store::ReportWriter and on files that are not reports.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../support/gpuscope_process.h"
#include "../../support/json_checker.h"
#include "../sample_report.h"
#include "../temp_dir.h"
#include "store/testing/rank_reports.h"

namespace gpuscope::cli {
namespace {

using testing::RunGpuscope;
using testing::TempDir;
using testing::WriteAddProgramReport;

// gpuscope stats must fail with exactly one line naming the problem, and print nothing on
// stdout.
void ExpectOneLineError(const testing::Finished& result, const std::string& contains) {
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.out, "");
  EXPECT_EQ(result.err.rfind("gpuscope: error: ", 0), 0u) << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << result.err;
  EXPECT_NE(result.err.find(contains), std::string::npos) << result.err;
}

void MakeSqliteDatabase(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  if (sql != nullptr) {
    ASSERT_EQ(sqlite3_exec(db, sql, nullptr, nullptr, nullptr), SQLITE_OK);
  }
  sqlite3_close(db);
}

TEST(StatsBinary, PrintsTheNvprofSummaryOfAReport) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242);
  testing::Finished result = RunGpuscope({"stats", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
  EXPECT_EQ(result.out, testing::kAddProgramSummary);
}

TEST(StatsBinary, AggregatesSeveralReports) {
  TempDir dir;
  WriteAddProgramReport(dir.File("rank0.sqlite"), 100);
  WriteAddProgramReport(dir.File("rank1.sqlite"), 101);
  testing::Finished result = RunGpuscope(
      {"stats", "--demangling", "off", dir.File("rank0.sqlite"), dir.File("rank1.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(" GPU activities:   56.32%  6.8480us         2  3.4240us  3.4240us  "
                            "3.4240us  _Z3addiiPi\n"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.out.find("      API calls:   99.92%  331.72ms         2  165.86ms"),
            std::string::npos)
      << result.out;
}

TEST(StatsBinary, PrintsNamedTablesInTheOrderGiven) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242);
  testing::Finished result =
      RunGpuscope({"stats", "-r", "cuda_api_sum,cuda_gpu_kern_sum", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  std::size_t api = result.out.find("cuda_api_sum");
  std::size_t kernels = result.out.find("cuda_gpu_kern_sum");
  ASSERT_NE(api, std::string::npos) << result.out;
  ASSERT_NE(kernels, std::string::npos) << result.out;
  EXPECT_LT(api, kernels);
  EXPECT_NE(result.out.find("165,860,000"), std::string::npos) << result.out;  // ns, like nsys
  EXPECT_NE(result.out.find("add(int, int, int*)"), std::string::npos);

  result = RunGpuscope(
      {"stats", "--report", "cuda_gpu_kern_sum", "--format", "csv", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find(",3424,"), std::string::npos) << result.out;
}

TEST(StatsBinary, SeveralJsonTablesFormOneDocument) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242);
  testing::Finished result = RunGpuscope(
      {"stats", "--format", "json", "-r", "cuda_api_sum,cuda_gpu_kern_sum", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind("{\n\"cuda_api_sum\": [", 0), 0u) << result.out;
  EXPECT_NE(result.out.find("],\n\"cuda_gpu_kern_sum\": ["), std::string::npos) << result.out;
  EXPECT_EQ(result.out.substr(result.out.size() - 4), "]\n}\n") << result.out;
}

TEST(StatsBinary, CsvSummary) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242);
  testing::Finished result = RunGpuscope({"stats", "--format=csv", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out.rfind(
                "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n", 0),
            0u)
      << result.out;
}

TEST(StatsBinary, LossesRecordedInAReportAreWarnedAbout) {
  TempDir dir;
  model::CollectionCounters losses;
  losses.dropped_records = 12;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242, losses);
  testing::Finished result = RunGpuscope({"stats", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.out, testing::kAddProgramSummary);
  EXPECT_EQ(
      result.err.rfind("gpuscope: warning: " + dir.File("r.sqlite") + ": 12 records were ", 0), 0u)
      << result.err;
}

TEST(StatsBinary, MissingReportIsOneLine) {
  TempDir dir;
  ExpectOneLineError(RunGpuscope({"stats", dir.File("none.sqlite")}), dir.File("none.sqlite"));
}

TEST(StatsBinary, TextFileIsOneLine) {
  TempDir dir;
  dir.Write("notes.txt", "this is not a report\n");
  ExpectOneLineError(RunGpuscope({"stats", dir.File("notes.txt")}), "not a gpuscope report");
}

TEST(StatsBinary, EmptySqliteDatabaseIsOneLine) {
  TempDir dir;
  MakeSqliteDatabase(dir.File("empty.sqlite"), "CREATE TABLE t(x); DROP TABLE t;");
  ExpectOneLineError(RunGpuscope({"stats", dir.File("empty.sqlite")}), dir.File("empty.sqlite"));
}

TEST(StatsBinary, ForeignSqliteDatabaseIsOneLine) {
  TempDir dir;
  MakeSqliteDatabase(dir.File("shop.sqlite"),
                     "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT);"
                     "INSERT INTO customers(name) VALUES ('ada');");
  ExpectOneLineError(RunGpuscope({"stats", dir.File("shop.sqlite")}), "not a gpuscope report");
}

TEST(StatsBinary, TruncatedReportIsOneLine) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 4242);
  struct stat info {};
  ASSERT_EQ(stat(dir.File("r.sqlite").c_str(), &info), 0);
  ASSERT_GT(info.st_size, 4096);
  ASSERT_EQ(truncate(dir.File("r.sqlite").c_str(), info.st_size / 2), 0);
  ExpectOneLineError(RunGpuscope({"stats", dir.File("r.sqlite")}), "truncated");
}

TEST(StatsBinary, OneBadReportAmongGoodOnesPrintsNothing) {
  TempDir dir;
  WriteAddProgramReport(dir.File("good.sqlite"), 1);
  dir.Write("bad.sqlite", "garbage");
  ExpectOneLineError(RunGpuscope({"stats", dir.File("good.sqlite"), dir.File("bad.sqlite")}),
                     dir.File("bad.sqlite"));
}

TEST(StatsBinary, UnknownReportNameExits2ListingTheNames) {
  TempDir dir;
  WriteAddProgramReport(dir.File("r.sqlite"), 1);
  testing::Finished result =
      RunGpuscope({"stats", "--report", "gpu_kernels", dir.File("r.sqlite")});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.out, "");
  EXPECT_NE(result.err.find("gpuscope: error: unknown report 'gpu_kernels' (known: "),
            std::string::npos)
      << result.err;
  EXPECT_NE(result.err.find("cuda_gpu_kern_sum"), std::string::npos);
}

TEST(StatsBinary, NoReportExits2) {
  testing::Finished result = RunGpuscope({"stats"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("gpuscope: error: no report given"), std::string::npos);
}

// The multi-rank tables through the binary: one JSON object with the three tables, rank
// order whatever the order of the arguments, the second host's clock offset found.
TEST(StatsBinary, PrintsTheRankTablesOfSeveralRanks) {
  TempDir dir;
  store::testing::RankReportsSpec spec;
  spec.ranks = 4;
  spec.ranks_per_host = 2;
  spec.host_clock_offset_ns = {0, 1'000'000};
  spec.steps = 2;
  spec.kernels_per_step = 2;
  std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 4u);
  testing::Finished result =
      RunGpuscope({"stats", "--report", "rank_align,rank_kern_sum,rank_nvtx_sum", "--format",
                   "json", paths[3], paths[0], paths[2], paths[1]});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string error;
  auto root = analysis::testing::ParseJson(result.out, &error);
  ASSERT_TRUE(root.has_value()) << error << "\n" << result.out;
  const auto* align = root->Find("rank_align");
  ASSERT_NE(align, nullptr);
  ASSERT_EQ(align->array.size(), 4u);
  EXPECT_EQ(align->array[0].Find("Rank")->text, "0");
  EXPECT_EQ(align->array[3].Find("Rank")->text, "3");
  EXPECT_EQ(align->array[3].Find("Offset (ns)")->text, "-1000000");
  EXPECT_EQ(align->array[3].Find("Method")->text, "collectives (2 matched)");
  ASSERT_NE(root->Find("rank_kern_sum"), nullptr);
  EXPECT_EQ(root->Find("rank_kern_sum")->array.size(), 3u);
  ASSERT_NE(root->Find("rank_nvtx_sum"), nullptr);
  EXPECT_FALSE(root->Find("rank_nvtx_sum")->array.empty());

  testing::Finished column = RunGpuscope({"stats", "-r", "rank_align", paths[0], paths[2]});
  ASSERT_EQ(column.exit_code, 0) << column.err;
  EXPECT_NE(column.out.find(" ** Rank Clock Alignment (rank_align):"), std::string::npos)
      << column.out;
  EXPECT_NE(column.out.find("-1,000,000"), std::string::npos) << column.out;
}

// Reports of schema version 2 (no ranks, no clock samples) still give the tables.
TEST(StatsBinary, RankTablesOfOldReportsWithoutRanks) {
  const std::string data = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/legacy/";
  testing::Finished result =
      RunGpuscope({"stats", "-r", "rank_align,rank_kern_sum", "--csv",
                   data + "h200_add_2026-11-21.sqlite", data + "h200_nvtx_ranges_2026-11-21.sqlite"});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("# rank_align\nRank,Host,PID,Offset (ns),Error (ns),Method,"
                            "GPU - host (ns),GPU spread (ns)\n,"),
            std::string::npos)
      << result.out;
  // No clock samples at all: no GPU pairs, the GPU columns empty.
  EXPECT_NE(result.out.find(",reference,,\n"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("add(int, int, int*)"), std::string::npos) << result.out;
}

}  // namespace
}  // namespace gpuscope::cli
