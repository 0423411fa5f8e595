// `gpuscope stats` on the reports recorded on the GPU (tests/data/reports): traces and the
// NVTX/grid tables read back from saved reports, one report named twice, and the one shape
// of several tables in CSV and JSON. Expected values come from the report itself, through
// SQL queries written here independently of the code under test.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using analysis::testing::JsonValue;
using testing::Finished;
using testing::ParsedJson;
using testing::RecordedReport;
using testing::RunGpuscope;

// Every row of a query's first column, as text.
std::vector<std::string> Query(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::vector<std::string> rows;
  EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
      << sqlite3_errmsg(db);
  while (statement != nullptr && sqlite3_step(statement) == SQLITE_ROW) {
    const unsigned char* text = sqlite3_column_text(statement, 0);
    rows.emplace_back(text == nullptr ? "" : reinterpret_cast<const char*>(text));
  }
  sqlite3_finalize(statement);
  sqlite3_close(db);
  return rows;
}

std::string QueryOne(const std::string& path, const std::string& sql) {
  std::vector<std::string> rows = Query(path, sql);
  return rows.empty() ? "" : rows[0];
}

// The rows of table `name` in `stats --format json` output.
const std::vector<JsonValue>& Rows(const JsonValue& document, const std::string& name) {
  static const std::vector<JsonValue> kNone;
  const JsonValue* table = document.Find(name);
  EXPECT_NE(table, nullptr) << name;
  return table == nullptr ? kNone : table->array;
}

std::string Field(const JsonValue& row, const std::string& column) {
  const JsonValue* value = row.Find(column);
  return value == nullptr ? "<missing>" : value->text;
}

TEST(StatsSavedReports, PrintsNvprofsGpuAndApiTracesFromASavedReport) {
  const std::string report = RecordedReport("h100_add.sqlite");
  Finished gpu = RunGpuscope({"stats", "--print-gpu-trace", report});
  ASSERT_EQ(gpu.exit_code, 0) << gpu.err;
  // The kernel's row carries its correlation id, as run --print-gpu-trace writes it.
  std::string kernel = QueryOne(report, "SELECT name FROM kernels_v");
  std::string correlation = QueryOne(report, "SELECT correlation_id FROM kernels_v");
  EXPECT_NE(gpu.out.find(kernel + " [" + correlation + "]"), std::string::npos) << gpu.out;
  EXPECT_NE(gpu.out.find("[CUDA memcpy DtoH]"), std::string::npos) << gpu.out;
  EXPECT_EQ(gpu.out.find("GPU activities:"), std::string::npos) << "a trace replaces the summary";

  Finished api = RunGpuscope({"stats", "--print-api-trace", "--csv", report});
  ASSERT_EQ(api.exit_code, 0) << api.err;
  EXPECT_EQ(api.out.rfind("\"Start\",\"Duration\",\"Name\",\"Correlation_ID\"\n", 0), 0u) << api.out;
  // One row per summarised call: runtime calls and driver calls the runtime did not make.
  std::string calls = QueryOne(
      report, "SELECT count(*) FROM api_calls_v WHERE domain = 'runtime' OR nested = 0");
  std::size_t lines = std::count(api.out.begin(), api.out.end(), '\n');
  EXPECT_EQ(std::to_string(lines - 2), calls) << api.out;  // header and units rows
}

TEST(StatsSavedReports, NsysTraceTablesHaveARowPerOperationWithItsTimes) {
  const std::string report = RecordedReport("h100_add.sqlite");
  Finished result =
      RunGpuscope({"stats", "-r", "cuda_gpu_trace,cuda_api_trace", "--format", "json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  JsonValue document = ParsedJson(result.out);
  const std::vector<JsonValue>& gpu = Rows(document, "cuda_gpu_trace");
  std::string operations = QueryOne(
      report, "SELECT (SELECT count(*) FROM kernels_v) + (SELECT count(*) FROM memcpys_v) + "
              "(SELECT count(*) FROM memsets_v)");
  EXPECT_EQ(std::to_string(gpu.size()), operations);
  bool found_kernel = false;
  for (const JsonValue& row : gpu) {
    if (Field(row, "Name") != QueryOne(report, "SELECT name FROM kernels_v")) continue;
    found_kernel = true;
    EXPECT_EQ(Field(row, "Duration (ns)"), QueryOne(report, "SELECT duration FROM kernels_v"));
    EXPECT_EQ(Field(row, "CorrId"), QueryOne(report, "SELECT correlation_id FROM kernels_v"));
    EXPECT_EQ(Field(row, "BlkX"), QueryOne(report, "SELECT block_x FROM kernels_v"));
    EXPECT_EQ(row.Find("Bytes (MB)")->kind, JsonValue::Kind::kNull) << "a kernel moves no bytes";
  }
  EXPECT_TRUE(found_kernel) << result.out;
  const std::vector<JsonValue>& api = Rows(document, "cuda_api_trace");
  std::string calls = QueryOne(
      report, "SELECT count(*) FROM api_calls_v WHERE domain = 'runtime' OR nested = 0");
  EXPECT_EQ(std::to_string(api.size()), calls);
  // In start order.
  for (std::size_t i = 1; i < api.size(); ++i) {
    EXPECT_LE(std::stoull(Field(api[i - 1], "Start (ns)")), std::stoull(Field(api[i], "Start (ns)")));
  }
}

// The kernels each NVTX range launched (its launch API call started inside the range, on its
// thread), computed here in SQL.
TEST(StatsSavedReports, NvtxKernelSumCountsTheKernelsLaunchedInsideEachRange) {
  const std::string report = RecordedReport("h100_nvtx_ranges.sqlite");
  Finished result = RunGpuscope({"stats", "-r", "nvtx_kern_sum", "--format", "json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  JsonValue document = ParsedJson(result.out);
  const std::vector<JsonValue>& rows = Rows(document, "nvtx_kern_sum");
  const std::string inside =
      "FROM nvtx_v n JOIN api_calls_v a ON a.thread_id = n.thread_id AND a.start BETWEEN "
      "n.start AND n.\"end\" JOIN kernels_v k ON k.correlation_id = a.correlation_id "
      "WHERE n.kind != 'mark' AND n.name = ";
  std::vector<std::string> ranges = Query(
      report, "SELECT DISTINCT n.name " + inside.substr(0, inside.find("WHERE")) +
                  "WHERE n.kind != 'mark' ORDER BY n.name");
  ASSERT_FALSE(ranges.empty()) << "the recording launches kernels inside ranges";
  ASSERT_EQ(rows.size(), ranges.size()) << result.out;
  for (const JsonValue& row : rows) {
    // nsys's label: ":name" for the default domain (analysis::NsysRangeLabel).
    std::string label = Field(row, "NVTX Range");
    ASSERT_EQ(label.rfind(':', 0), 0u) << label;
    std::string quoted = "'" + label.substr(1) + "'";
    EXPECT_EQ(Field(row, "Kern Inst"), QueryOne(report, "SELECT count(*) " + inside + quoted));
    EXPECT_EQ(Field(row, "NVTX Inst"),
              QueryOne(report, "SELECT count(DISTINCT n.id) " + inside + quoted));
    EXPECT_EQ(Field(row, "Total Time (ns)"),
              QueryOne(report, "SELECT sum(k.duration) " + inside + quoted));
    EXPECT_EQ(Field(row, "Kernel Name"), QueryOne(report, "SELECT k.name " + inside + quoted));
  }
}

// A range's projection runs from its first GPU operation's start to its last one's end.
TEST(StatsSavedReports, NvtxGpuProjectionSpansTheRangesGpuWork) {
  const std::string report = RecordedReport("h100_nvtx_ranges.sqlite");
  Finished result = RunGpuscope({"stats", "-r", "nvtx_gpu_proj_sum", "--format", "json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  JsonValue document = ParsedJson(result.out);
  const std::vector<JsonValue>& rows = Rows(document, "nvtx_gpu_proj_sum");
  ASSERT_FALSE(rows.empty()) << result.out;
  for (const JsonValue& row : rows) {
    std::string label = Field(row, "Range");
    ASSERT_EQ(label.rfind(':', 0), 0u) << label;  // the default domain: ":name"
    std::string name = "'";
    name.append(label, 1).append("'");
    // Per instance of the range: the GPU work its API calls launched, kernels, copies, memsets.
    std::string per_instance =
        "SELECT n.id AS id, n.duration AS range_time, max(g.\"end\") - min(g.start) AS proj, "
        "count(*) AS ops FROM nvtx_v n JOIN api_calls_v a ON a.thread_id = n.thread_id AND "
        "a.start BETWEEN n.start AND n.\"end\" JOIN (SELECT correlation_id, start, \"end\" FROM "
        "kernels_v UNION ALL SELECT correlation_id, start, \"end\" FROM memcpys_v UNION ALL "
        "SELECT correlation_id, start, \"end\" FROM memsets_v) g ON g.correlation_id = "
        "a.correlation_id WHERE n.kind != 'mark' AND n.name = " +
        name + " GROUP BY n.id";
    EXPECT_EQ(Field(row, "Total Proj Time (ns)"),
              QueryOne(report, "SELECT sum(proj) FROM (" + per_instance + ")"));
    EXPECT_EQ(Field(row, "Total Range Time (ns)"),
              QueryOne(report, "SELECT sum(range_time) FROM (" + per_instance + ")"));
    EXPECT_EQ(Field(row, "Range Instances"),
              QueryOne(report, "SELECT count(*) FROM (" + per_instance + ")"));
    EXPECT_EQ(Field(row, "Total GPU Ops"),
              QueryOne(report, "SELECT sum(ops) FROM (" + per_instance + ")"));
  }
  // The outer range holds the inner ones: it is nested in nothing and has children.
  for (const JsonValue& row : rows) {
    if (Field(row, "Range") == ":outer") {
      EXPECT_EQ(Field(row, "Avg Range Lvl"), "0.0");
    }
    if (Field(row, "Range") == ":inner") {
      EXPECT_EQ(Field(row, "Avg Range Lvl"), "1.0");
    }
  }
}

TEST(StatsSavedReports, KernelGridBlockSumGroupsByLaunchConfiguration) {
  const std::string report = RecordedReport("h100_metrics_full.sqlite");
  Finished result =
      RunGpuscope({"stats", "-r", "cuda_gpu_kern_gb_sum", "--format", "json", report});
  ASSERT_EQ(result.exit_code, 0) << result.err;
  JsonValue document = ParsedJson(result.out);
  const std::vector<JsonValue>& rows = Rows(document, "cuda_gpu_kern_gb_sum");
  std::string groups = QueryOne(
      report, "SELECT count(*) FROM (SELECT DISTINCT name, grid_x, grid_y, grid_z, block_x, "
              "block_y, block_z FROM kernels_v WHERE start > 0)");
  EXPECT_EQ(std::to_string(rows.size()), groups) << result.out;
  for (const JsonValue& row : rows) {
    std::string grid = Field(row, "GridXYZ");
    std::string block = Field(row, "BlockXYZ");
    unsigned gx = 0, gy = 0, gz = 0, bx = 0, by = 0, bz = 0;
    ASSERT_EQ(std::sscanf(grid.c_str(), "%u %u %u", &gx, &gy, &gz), 3) << grid;
    ASSERT_EQ(std::sscanf(block.c_str(), "%u %u %u", &bx, &by, &bz), 3) << block;
    std::string where = " FROM kernels_v WHERE start > 0 AND name = '" + Field(row, "Name") +
                        "' AND grid_x = " + std::to_string(gx) + " AND grid_y = " +
                        std::to_string(gy) + " AND grid_z = " + std::to_string(gz) +
                        " AND block_x = " + std::to_string(bx) + " AND block_y = " +
                        std::to_string(by) + " AND block_z = " + std::to_string(bz);
    EXPECT_EQ(Field(row, "Instances"), QueryOne(report, "SELECT count(*)" + where));
    EXPECT_EQ(Field(row, "Total Time (ns)"), QueryOne(report, "SELECT sum(duration)" + where));
  }
}

TEST(StatsSavedReports, OneReportNamedTwiceIsReadOnce) {
  testing::TempDir dir;
  const std::string report = RecordedReport("h100_add.sqlite");
  std::filesystem::create_symlink(report, dir.File("link.sqlite"));
  Finished once = RunGpuscope({"stats", "-r", "cuda_gpu_kern_sum", "--csv", report});
  ASSERT_EQ(once.exit_code, 0) << once.err;
  Finished repeated = RunGpuscope({"stats", "-r", "cuda_gpu_kern_sum", "--csv", report, report,
                                   dir.File("link.sqlite"), report});
  ASSERT_EQ(repeated.exit_code, 0) << repeated.err;
  EXPECT_EQ(repeated.out, once.out);
  // Said once per repeated name, as warnings.
  EXPECT_EQ(std::count(repeated.err.begin(), repeated.err.end(), '\n'), 2) << repeated.err;
  EXPECT_NE(repeated.err.find("gpuscope: warning: " + report + " is named more than once"),
            std::string::npos)
      << repeated.err;
  EXPECT_NE(repeated.err.find(dir.File("link.sqlite") + " is " + report + " again"),
            std::string::npos)
      << repeated.err;
}

TEST(StatsSavedReports, JsonIsAlwaysAnObjectKeyedByTableAndCsvTablesAreNamed) {
  const std::string report = RecordedReport("h100_add.sqlite");
  Finished one = RunGpuscope({"stats", "-r", "cuda_api_sum", "--format", "json", report});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  JsonValue document = ParsedJson(one.out);
  ASSERT_EQ(document.kind, JsonValue::Kind::kObject) << one.out;
  ASSERT_EQ(document.object.size(), 1u);
  EXPECT_EQ(document.object[0].first, "cuda_api_sum");
  EXPECT_EQ(document.object[0].second.kind, JsonValue::Kind::kArray);

  Finished csv = RunGpuscope({"stats", "-r", "cuda_api_sum,cuda_gpu_kern_sum", "--csv", report});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("# cuda_api_sum\n", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find("\n\n# cuda_gpu_kern_sum\n"), std::string::npos) << csv.out;
}

// Options that would be ignored are refused with the reason, as usage errors.
TEST(StatsSavedReports, RefusesOptionsThatWouldBeIgnored) {
  const std::string report = RecordedReport("h100_metrics_full.sqlite");
  struct Case {
    std::vector<std::string> args;
    std::string reason;
  };
  const Case cases[] = {
      {{"-u", "ms", "-r", "cuda_api_sum"}, "applies to nvprof's summary and traces only"},
      {{"--demangling", "off", "-r", "cuda_gpu_kern_sum"}, "applies to nvprof's summary"},
      {{"-k", "k_tiny", "-r", "cuda_gpu_kern_sum"}, "need --page"},
      {{"--print-summary", "per-kernel", "--page", "raw"}, "not --page raw"},
      {{"--print-gpu-trace", "--format", "json"}, "no JSON form"},
      {{"--print-gpu-trace", "-r", "cuda_api_sum"}, "cannot be combined"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"stats"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    args.push_back(report);
    Finished result = RunGpuscope(args);
    EXPECT_EQ(result.exit_code, 2) << c.args[0];
    EXPECT_EQ(result.out, "");
    EXPECT_EQ(result.err.rfind("gpuscope: error: ", 0), 0u) << result.err;
    EXPECT_NE(result.err.find(c.reason), std::string::npos) << result.err;
  }
  // Without --page, per-kernel means the details page it summarises.
  Finished summary = RunGpuscope({"stats", "--print-summary", "per-kernel", report});
  EXPECT_EQ(summary.exit_code, 0) << summary.err;
  Finished explicit_page =
      RunGpuscope({"stats", "--page", "details", "--print-summary", "per-kernel", report});
  EXPECT_EQ(summary.out, explicit_page.out);
  EXPECT_NE(summary.out.find("Invocations"), std::string::npos) << summary.out;
}

}  // namespace
}  // namespace gpuscope::cli
