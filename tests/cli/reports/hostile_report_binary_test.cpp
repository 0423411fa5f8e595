// Issue 14, "Readers that never crash": every command that reads reports meets any file
// with either its output or a one-line error and a non-zero exit, never a signal, a hang,
// a silently shortened output or invalid JSON. The reports are the add program's report
// (sample_report.h) mutated with SQL.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../../support/json_checker.h"
#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::Finished;
using testing::RunGpuscope;
using testing::TempDir;

using exporter::testing::ExecSql;

// The add program's report at dir/r.sqlite with `sql` run on it.
std::string MutatedReport(const TempDir& dir, const std::string& sql) {
  std::string path = dir.File("r.sqlite");
  testing::WriteAddProgramReport(path, 4242);
  ExecSql(path, sql);
  return path;
}

// Output and exit 0, or exactly one line on stderr and exit 1; never a signal.
void ExpectOutputOrOneLineError(const Finished& result, const std::string& command) {
  EXPECT_EQ(result.signal, 0) << command << ": " << result.err;
  if (result.exit_code == 0) {
    // What a command writes as JSON on stdout must parse.
    if (command.find(" json ") != std::string::npos || command.find(" chrome ") != std::string::npos) {
      std::string error;
      EXPECT_TRUE(analysis::testing::ParseJson(result.out, &error).has_value())
          << command << ": " << error;
    }
    return;
  }
  EXPECT_EQ(result.exit_code, 1) << command << ": " << result.err;
  EXPECT_EQ(result.err.rfind("gpuscope: error: ", 0), 0u) << command << ": " << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << command << ": " << result.err;
}

// Every reading command on `report`; returns their results by command line.
std::vector<std::pair<std::string, Finished>> RunEveryReader(const TempDir& dir,
                                                             const std::string& report) {
  std::vector<std::vector<std::string>> commands = {
      {"stats", report},
      {"stats", "--rules", report},
      {"stats", "--format", "json", "-r",
       "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum,nvtx_sum",
       report},
      {"stats", "--format", "csv", "-r", "cuda_gpu_kern_sum,cuda_api_sum", report},
      {"stats", "--page", "details", report},
      {"export", "--format", "chrome", "-o", "-", report},
      {"export", "--format", "csv", "-o", dir.File("csv"), report},
      {"report", "-o", dir.File("r.html"), report},
      {"roofline", report},
      {"diff", report, report},
      {"ranks", "--format", "json", report},
  };
  std::vector<std::pair<std::string, Finished>> results;
  for (const std::vector<std::string>& args : commands) {
    std::string line;
    for (const std::string& arg : args) line += arg + " ";
    results.emplace_back(line, RunGpuscope(args));
    ExpectOutputOrOneLineError(results.back().second, line);
  }
  return results;
}

TEST(HostileReports, ExtremeIdsKeepEveryRow) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "UPDATE memcpys SET id=9223372036854775807;"
      "UPDATE api_calls SET id=9223372036854775807 WHERE id=(SELECT max(id) FROM api_calls);"
      "UPDATE api_calls SET id=1 WHERE id=(SELECT min(id) FROM api_calls);");
  Finished stats = RunGpuscope({"stats", report});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("[CUDA memcpy DtoH]"), std::string::npos) << stats.out;
  EXPECT_NE(stats.out.find("API calls:"), std::string::npos) << stats.out;
  RunEveryReader(dir, report);
}

TEST(HostileReports, ARecursiveViewInPlaceOfATableIsAOneLineError) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "DROP TABLE counters; CREATE VIEW counters AS WITH RECURSIVE r(n) AS "
      "(SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'x' AS name, n AS value FROM r");
  for (const auto& [command, result] : RunEveryReader(dir, report)) {
    if (command.rfind("diff", 0) == 0) continue;
    EXPECT_EQ(result.exit_code, 1) << command;
    EXPECT_NE(result.err.find("counters is a view, not a table"), std::string::npos)
        << command << ": " << result.err;
  }
}

// Rows with impossible values are skipped with a printed count, never silently.
TEST(HostileReports, EventsEndingBeforeTheyStartAreCountedNotDropped) {
  TempDir dir;
  std::string report = MutatedReport(dir, "UPDATE kernels SET \"end\" = start - 1000;");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"stats", report},
        std::vector<std::string>{"stats", "-r", "cuda_gpu_kern_sum", report},
        std::vector<std::string>{"ranks", report}}) {
    Finished stats = RunGpuscope(args);
    EXPECT_EQ(stats.exit_code, 0) << stats.err;
    EXPECT_NE(stats.err.find("1 row of kernels ends before it starts (damaged timestamps): "
                             "skipped"),
              std::string::npos)
        << stats.err;
  }
  RunEveryReader(dir, report);
}

// A memory row of a device the report does not list names that GPU outside the counter event.
TEST(HostileReports, MemoryOfAnUnlistedDeviceKeepsTheChromeTraceValid) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "INSERT INTO memory (timestamp, op, memory_kind, address, bytes, device_id, context_id, "
      "stream_id, correlation_id, is_async, pc) SELECT min(start), 1, 1, 4096, 1024, 99, 1, 0, 0, "
      "0, 0 FROM kernels;");
  Finished chrome = RunGpuscope({"export", "--format", "chrome", "-o", "-", report});
  EXPECT_EQ(chrome.exit_code, 0) << chrome.err;
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(chrome.out, &error).has_value()) << error;
  EXPECT_NE(chrome.out.find("GPU 99"), std::string::npos);
}

// Absurd values (a 2^62-byte allocation twice, a process start at INT64_MIN, a block of
// 2^31 threads) give absurd numbers, not signed overflow (run under UBSan to see it).
TEST(HostileReports, AbsurdValuesSaturate) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "INSERT INTO memory (timestamp, op, memory_kind, address, bytes, device_id, context_id, "
      "stream_id, correlation_id, is_async, pc) SELECT min(start), 1, 1, 4096, 4611686018427387904, "
      "0, 1, 0, 0, 0, 0 FROM kernels;"
      "INSERT INTO memory (timestamp, op, memory_kind, address, bytes, device_id, context_id, "
      "stream_id, correlation_id, is_async, pc) SELECT min(start), 1, 1, 8192, 4611686018427387904, "
      "0, 1, 0, 0, 0, 0 FROM kernels;"
      "UPDATE process SET start = -9223372036854775808;"
      "UPDATE kernels SET block_x = 2147483648, block_y = 2147483647, block_z = 2;");
  Finished chrome = RunGpuscope({"export", "--format", "chrome", "-o", "-", report});
  EXPECT_EQ(chrome.exit_code, 0) << chrome.err;
  EXPECT_NE(chrome.out.find("\"bytes\":9223372036854775807"), std::string::npos);
  RunEveryReader(dir, report);
}

// A start of INT64_MAX on the report's time base passes 2^63 in the timeline's reader, which
// once added them as signed numbers (undefined: UBSan stops `report` and `view` there). Every
// reader now places the row at the same time, outside the run, and skips it alike.
TEST(HostileReports, AStartAtInt64MaxIsOutsideTheRunForEveryReader) {
  TempDir dir;
  std::string report = MutatedReport(
      dir, "UPDATE kernels SET start = 9223372036854775807, \"end\" = 9223372036854775807;");
  const std::string skipped = "1 row of kernels lies outside the run (damaged timestamps): skipped";
  Finished stats = RunGpuscope({"stats", report});
  EXPECT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.err.find(skipped), std::string::npos) << stats.err;
  // The HTML report's timeline comes from the other reader (store/timeline_rows.h).
  Finished html = RunGpuscope({"report", "-o", dir.File("r.html"), report});
  EXPECT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(testing::ReadWholeFile(dir.File("r.html")).find(skipped), std::string::npos);
  RunEveryReader(dir, report);
}

// Names with control characters reach no terminal raw; CSV cells are never formulas.
TEST(HostileReports, NamesAreEscapedForTerminalsAndSpreadsheets) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "UPDATE strings SET value = '=HYPERLINK(\"x\")' || char(27) || ']0;owned' || char(7) || "
      "char(13) || char(10) || 'fake row', demangled = '=HYPERLINK(\"x\")' || char(27) || "
      "']0;owned' || char(7) || char(13) || char(10) || 'fake row' "
      "WHERE id = (SELECT name_id FROM kernels LIMIT 1); "
      // The ranks page names no ordinary kernel but each report's host.
      "UPDATE process SET hostname = '=HYPERLINK(\"x\")' || char(27) || ']0;owned' || char(7) "
      "|| char(13) || char(10) || 'fake row';");
  for (std::vector<std::string> args :
       {std::vector<std::string>{"stats", report},
        std::vector<std::string>{"stats", "-r", "cuda_gpu_kern_sum", report},
        std::vector<std::string>{"ranks", report}}) {
    Finished stats = RunGpuscope(args);
    EXPECT_EQ(stats.exit_code, 0) << stats.err;
    EXPECT_EQ(stats.out.find('\x1b'), std::string::npos) << stats.out;
    EXPECT_EQ(stats.out.find('\r'), std::string::npos) << stats.out;
    EXPECT_NE(stats.out.find("\\x1b]0;owned\\x07\\x0d\\x0afake row"), std::string::npos)
        << stats.out;
  }
  Finished csv = RunGpuscope({"stats", "--format", "csv", "-r", "cuda_gpu_kern_sum", report});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\"'=HYPERLINK"), std::string::npos) << csv.out;
  RunEveryReader(dir, report);
}

// A later table that fails must not leave the earlier ones on stdout as a truncated document.
TEST(HostileReports, AFailingLaterTableLeavesOnlyTheError) {
  TempDir dir;
  std::string report = MutatedReport(dir, "DROP VIEW nvtx_v; DROP TABLE nvtx;");
  for (const char* format : {"json", "csv", "column"}) {
    Finished stats =
        RunGpuscope({"stats", "--format", format, "-r", "cuda_gpu_kern_sum,nvtx_sum", report});
    EXPECT_EQ(stats.exit_code, 1) << format;
    EXPECT_EQ(stats.out, "") << format;
    EXPECT_NE(stats.err.find("no such table: nvtx"), std::string::npos) << stats.err;
  }
}

// A damaged schema whose text holds a line break and a terminal escape (found by tests/fuzz:
// two flipped bits in a table's CREATE statement): SQLite quotes the text in its message,
// and the error must still be one line, with nothing the terminal would run.
TEST(HostileReports, AnErrorQuotingTheFileStaysOneLine) {
  TempDir dir;
  std::string report = MutatedReport(
      dir,
      "PRAGMA writable_schema = ON; UPDATE sqlite_master SET sql = 'CREATE TABLE memsets (id "
      "INTEGER, `' || char(27) || ']0;owned' || char(7) || char(10) || 'fake line)' WHERE name = "
      "'memsets';");
  Finished stats = RunGpuscope({"stats", report});
  EXPECT_EQ(stats.exit_code, 1) << stats.err;
  EXPECT_EQ(stats.err.rfind("gpuscope: error: ", 0), 0u) << stats.err;
  EXPECT_EQ(stats.err.find('\n'), stats.err.size() - 1) << stats.err;
  EXPECT_EQ(stats.err.find('\x1b'), std::string::npos) << stats.err;
  EXPECT_NE(stats.err.find("\\x1b]0;owned\\x07\\x0afake line"), std::string::npos) << stats.err;
  RunEveryReader(dir, report);
}

}  // namespace
}  // namespace gpuscope::cli
