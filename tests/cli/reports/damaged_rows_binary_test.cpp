// Issue 14: values out of range are skipped with a count, never shown as nonsense
// (store/damaged_rows.h). A report recorded on the GPU machine (tests/data/reports) is
// mutated with SQL in a scratch directory; `stats` and `export` must name what they left
// out, and their totals must be the report's without the damaged rows, as SQL computes them.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../../support/json_checker.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RunGpuscope;
using testing::TempDir;

// The recorded nvtx_ranges report (two launches of one kernel, runtime API calls), with
// `sql` run on it, at dir/r.sqlite.
std::string MutatedRecording(const TempDir& dir, const std::string& sql) {
  std::string path = dir.File("r.sqlite");
  std::filesystem::copy_file(
      std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_nvtx_ranges.sqlite", path);
  exporter::testing::ExecSql(path, sql);
  return path;
}

// The first column of the first row of `sql` on the report (read-only).
std::int64_t SqlInt(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::int64_t value = -1;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      value = sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(db);
  EXPECT_GE(value, 0) << sql;
  return value;
}

using analysis::testing::JsonValue;

const JsonValue& Member(const JsonValue& object, std::string_view key) {
  static const JsonValue kMissing;
  const JsonValue* found = object.Find(key);
  return found != nullptr ? *found : kMissing;
}

// The rows of `stats -r <table> --format json` (an object keyed by table name); fails the test
// when it does not parse.
JsonValue StatsTable(const std::string& report, const std::string& table, Finished& ran) {
  ran = RunGpuscope({"stats", "-r", table, "--format", "json", report});
  EXPECT_EQ(ran.exit_code, 0) << ran.err;
  std::string error;
  std::optional<JsonValue> parsed = analysis::testing::ParseJson(ran.out, &error);
  EXPECT_TRUE(parsed.has_value()) << error << "\n" << ran.out;
  return parsed ? Member(*parsed, table) : JsonValue();
}

// Sum of `column` over the rows of a stats table; of the rows named `name` when given.
double Sum(const JsonValue& rows, const std::string& column, const std::string& name = "") {
  double sum = 0;
  for (const JsonValue& row : rows.array) {
    if (!name.empty() && Member(row, "Name").text != name) continue;
    sum += Member(row, column).number;
  }
  return sum;
}

std::size_t Occurrences(const std::string& text, const std::string& fragment) {
  std::size_t count = 0;
  for (std::size_t at = text.find(fragment); at != std::string::npos;
       at = text.find(fragment, at + 1)) {
    ++count;
  }
  return count;
}

constexpr const char* kFirstKernel = "(SELECT min(id) FROM kernels)";

TEST(DamagedRows, AKernelWithAGridOfZeroIsSkippedWithACount) {
  TempDir dir;
  std::string report = MutatedRecording(
      dir, std::string("UPDATE kernels SET grid_y = 0 WHERE id = ") + kFirstKernel);
  const std::int64_t kept = SqlInt(report, "SELECT count(*) FROM kernels WHERE grid_y > 0");
  const std::int64_t kept_ns =
      SqlInt(report, "SELECT sum(\"end\" - start) FROM kernels WHERE grid_y > 0");
  ASSERT_GT(kept, 0);

  Finished ran;
  JsonValue rows = StatsTable(report, "cuda_gpu_kern_sum", ran);
  EXPECT_EQ(Sum(rows, "Instances"), static_cast<double>(kept));
  EXPECT_EQ(Sum(rows, "Total Time (ns)"), static_cast<double>(kept_ns));
  const std::string warning =
      "gpuscope: warning: " + report +
      ": 1 row of kernels has a grid or block dimension of 0 or less (damaged launch "
      "configuration): skipped\n";
  EXPECT_NE(ran.err.find(warning), std::string::npos) << ran.err;

  // The nvprof summary says the same.
  Finished summary = RunGpuscope({"stats", report});
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  EXPECT_NE(summary.err.find(warning), std::string::npos) << summary.err;

  Finished chrome = RunGpuscope({"export", "--format", "chrome", "-o", "-", report});
  EXPECT_EQ(chrome.exit_code, 0) << chrome.err;
  EXPECT_EQ(Occurrences(chrome.out, "\"cat\":\"kernel\""), static_cast<std::size_t>(kept));
  EXPECT_NE(chrome.err.find(warning), std::string::npos) << chrome.err;
}

TEST(DamagedRows, AKernelEndingAfterTheRunIsSkippedWithACount) {
  TempDir dir;
  std::string report = MutatedRecording(
      dir, std::string("UPDATE kernels SET \"end\" = (SELECT \"end\" FROM process) + 1000000000 "
                       "WHERE id = ") +
               kFirstKernel);
  const std::int64_t kept =
      SqlInt(report, "SELECT count(*) FROM kernels WHERE \"end\" <= (SELECT \"end\" FROM process)");
  const std::int64_t kept_ns =
      SqlInt(report,
             "SELECT sum(\"end\" - start) FROM kernels WHERE \"end\" <= (SELECT \"end\" FROM "
             "process)");
  ASSERT_GT(kept, 0);

  Finished ran;
  JsonValue rows = StatsTable(report, "cuda_gpu_kern_sum", ran);
  EXPECT_EQ(Sum(rows, "Instances"), static_cast<double>(kept));
  EXPECT_EQ(Sum(rows, "Total Time (ns)"), static_cast<double>(kept_ns));
  EXPECT_NE(ran.err.find(report + ": 1 row of kernels lies outside the run (damaged "
                                  "timestamps): skipped\n"),
            std::string::npos)
      << ran.err;
}

TEST(DamagedRows, AnApiCallBeforeTheRunIsSkippedWithACount) {
  TempDir dir;
  const std::string malloc_rows = "name_id = (SELECT id FROM strings WHERE value = 'cudaMalloc')";
  std::string report = MutatedRecording(
      dir,
      "UPDATE api_calls SET start = (SELECT start FROM process) - 5000, \"end\" = (SELECT "
      "start FROM process) - 10 WHERE " +
          malloc_rows +
          // Moved this far back the rows are out of the order row_order vouches for (a
          // reader refuses that as corrupt); without the entry SQLite sorts them.
          "; DELETE FROM row_order WHERE table_name = 'api_calls';");
  const std::int64_t moved = SqlInt(report, "SELECT count(*) FROM api_calls WHERE " + malloc_rows);
  ASSERT_GT(moved, 0);

  Finished ran;
  JsonValue rows = StatsTable(report, "cuda_api_sum", ran);
  EXPECT_EQ(Sum(rows, "Num Calls", "cudaMalloc"), 0.0) << ran.out;
  EXPECT_GT(Sum(rows, "Num Calls", "cudaFree"), 0.0) << "the others are still there";
  const std::string count = std::to_string(moved) + (moved == 1 ? " row of" : " rows of");
  EXPECT_NE(ran.err.find(report + ": " + count + " api_calls " + (moved == 1 ? "lies" : "lie") +
                         " outside the run (damaged timestamps): skipped\n"),
            std::string::npos)
      << ran.err;
}

// `diff` compares what `stats` counts: the rows it left out are named the same way, after the
// comparison, for each report that has them.
TEST(DamagedRows, DiffNamesTheRowsItLeftOutAsStatsDoes) {
  TempDir dir;
  std::string report = MutatedRecording(
      dir, std::string("UPDATE kernels SET grid_y = 0 WHERE id = ") + kFirstKernel);
  const std::string clean = dir.File("clean.sqlite");
  std::filesystem::copy_file(
      std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_nvtx_ranges.sqlite", clean);
  const std::string warning =
      "gpuscope: warning: " + report +
      ": 1 row of kernels has a grid or block dimension of 0 or less (damaged launch "
      "configuration): skipped\n";
  Finished stats = RunGpuscope({"stats", report});
  EXPECT_NE(stats.err.find(warning), std::string::npos) << stats.err;
  for (const char* format : {"column", "csv", "json"}) {
    Finished diff = RunGpuscope({"diff", "--format", format, clean, report});
    EXPECT_EQ(diff.exit_code, 0) << diff.err;
    EXPECT_EQ(diff.err, warning) << format;
  }
  Finished reversed = RunGpuscope({"diff", report, clean});
  EXPECT_EQ(reversed.err, warning);
}

// A report whose process never flushed records no end: then nothing is judged outside it.
TEST(DamagedRows, WithoutARecordedEndNoRowIsOutsideTheRun) {
  TempDir dir;
  std::string report = MutatedRecording(
      dir, std::string("UPDATE kernels SET \"end\" = (SELECT \"end\" FROM process) + 1000000000 "
                       "WHERE id = ") +
               kFirstKernel + "; UPDATE process SET \"end\" = NULL;");
  const std::int64_t all = SqlInt(report, "SELECT count(*) FROM kernels");
  Finished ran;
  JsonValue rows = StatsTable(report, "cuda_gpu_kern_sum", ran);
  EXPECT_EQ(Sum(rows, "Instances"), static_cast<double>(all));
  EXPECT_EQ(ran.err.find("outside the run"), std::string::npos) << ran.err;
}

}  // namespace
}  // namespace gpuscope::cli
