// evaluate::EvaluateReport on the H100 recording of examples/metrics_kernels (14 measured
// launches, values evaluated there): what it stores, when it writes at all, that it opens the
// report for writing once and commits once, and that a failure part-way stores nothing.
#include "evaluate/report_evaluation.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "store/counter_data_codec.h"
#include "store/profile_store.h"
#include "store/report_reader.h"
#include "store_test_util.h"

namespace gpuscope::evaluate {
namespace {

namespace test = store::test;

const std::string kRecorded = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_metrics_full.sqlite";
const std::string kTraceOnly = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_add.sqlite";
constexpr std::int64_t kMeasuredKernels = 14;
// The recording carries its SASS: nothing here disassembles.
const NvdisasmSearch kNvdisasmUnused{};

// SQLite calls this for every connection the process opens: it counts those that may write
// (ReportReader opens read-only), which is how a test sees how often the report was opened
// for writing.
int g_writable_opens = 0;
int CountWritableOpen(sqlite3* db, char**, const sqlite3_api_routines*) {
  if (sqlite3_db_readonly(db, "main") == 0) ++g_writable_opens;
  return SQLITE_OK;
}

using Rows = std::map<std::pair<std::int64_t, std::string>, store::StoredMetric>;

Rows MetricRows(const std::string& path) {
  Rows rows;
  auto report = store::ReportReader::Open(path);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return rows;
  auto metrics = store::ReadKernelMetrics(**report);
  EXPECT_TRUE(metrics.ok()) << metrics.status().message();
  if (!metrics.ok()) return rows;
  for (const auto& [id, values] : *metrics) {
    for (const store::StoredMetric& metric : values) rows[{id, metric.name}] = metric;
  }
  return rows;
}

class ReportEvaluationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    sqlite3_auto_extension(reinterpret_cast<void (*)()>(&CountWritableOpen));
  }
  static void TearDownTestSuite() {
    sqlite3_cancel_auto_extension(reinterpret_cast<void (*)()>(&CountWritableOpen));
  }

  // A copy of `report` with `sql` run on it.
  std::string Copy(const std::string& report, const std::string& sql = "") {
    const std::string path = dir_.File("r.sqlite");
    std::filesystem::copy_file(report, path, std::filesystem::copy_options::overwrite_existing);
    if (!sql.empty()) test::ExecSql(path, sql);
    g_writable_opens = 0;
    return path;
  }

  test::TempDir dir_;
};

// The golden test golden_profile_offline_evaluation checks the printed pages; this checks
// the stored rows: each value the H100 stored evaluates here to the same value and unit.
TEST_F(ReportEvaluationTest, CounterDataNeverEvaluatedGetsTheRecordedValuesAndFindings) {
  const Rows recorded = MetricRows(kRecorded);
  ASSERT_FALSE(recorded.empty());
  // (The recording predates kernel_findings: the evaluation adds the table.)
  const std::string path =
      Copy(kRecorded, "DELETE FROM kernel_metrics; DROP TABLE IF EXISTS kernel_findings");

  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_EQ(evaluated->kernels, static_cast<std::size_t>(kMeasuredKernels));
  EXPECT_EQ(evaluated->failed, 0u);
  EXPECT_TRUE(evaluated->problems.empty());

  const Rows again = MetricRows(path);
  for (const auto& [key, metric] : recorded) {
    auto found = again.find(key);
    ASSERT_NE(found, again.end()) << "kernel " << key.first << " lost " << key.second;
    EXPECT_EQ(found->second.unit, metric.unit) << key.second;
    ASSERT_EQ(found->second.value.has_value(), metric.value.has_value()) << key.second;
    if (metric.value) {
      EXPECT_DOUBLE_EQ(*found->second.value, *metric.value) << key.second;
    }
  }
  EXPECT_EQ(test::QueryInt(path, "SELECT count(DISTINCT profiled_kernel_id) FROM kernel_metrics"),
            kMeasuredKernels);
  EXPECT_EQ(test::QueryInt(path,
                           "SELECT count(*) FROM kernel_findings f JOIN profiled_kernels p ON "
                           "p.id = f.profiled_kernel_id JOIN strings s ON s.id = p.name_id "
                           "WHERE f.rule_id = 'smem_bank_conflicts' AND "
                           "s.value = '_Z21k_smem_bank_conflictsPfi'"),
            1);
}

TEST_F(ReportEvaluationTest, OneOpenForWritingAndOneTransaction) {
  const std::string path = Copy(kRecorded, "DELETE FROM kernel_metrics");
  const std::uint32_t before = test::FileChangeCounter(path);
  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_EQ(g_writable_opens, 1);
  EXPECT_EQ(test::FileChangeCounter(path), before + 1) << "values, findings and request: one commit";
}

// `stats --page`, `view` and `report` call it on every report: one whose kernels all have
// values, or one without profiled kernels, is only read (so read-only copies work too).
TEST_F(ReportEvaluationTest, AReportWithNothingToEvaluateIsOnlyRead) {
  for (const std::string& report : {kRecorded, kTraceOnly}) {
    const std::string path = Copy(report);
    const std::uint32_t before = test::FileChangeCounter(path);
    StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused);
    ASSERT_TRUE(evaluated.ok()) << report << ": " << evaluated.status().message();
    EXPECT_EQ(evaluated->kernels, 0u) << report;
    EXPECT_EQ(g_writable_opens, 0) << report;
    EXPECT_EQ(test::FileChangeCounter(path), before) << report;
  }
}

// The findings are stored after the values: refusing them (a constraint the file's table
// adds) must take the values back too. (A trigger no longer gets that far: schema_objects.h.)
// The report cannot take the results, so they are kept in memory, where later readers see
// them, and the summary says they were not stored.
TEST_F(ReportEvaluationTest, AFailurePartWayStoresNothing) {
  const std::string path = Copy(kRecorded, "DELETE FROM kernel_metrics");
  // Creates kernel_findings, which the recording lacks.
  ASSERT_TRUE(EvaluateReport(path, kNvdisasmUnused).ok());
  test::ExecSql(path,
                "DELETE FROM kernel_metrics; DROP TABLE kernel_findings; CREATE TABLE "
                "kernel_findings (profiled_kernel_id INTEGER NOT NULL, rank INTEGER NOT NULL "
                "CHECK (rank < 0), rule_id TEXT NOT NULL, severity TEXT NOT NULL, section TEXT "
                "NOT NULL, title TEXT NOT NULL, message TEXT NOT NULL, speedup_pct REAL, "
                "speedup_formula TEXT NOT NULL, PRIMARY KEY (profiled_kernel_id, rank)) "
                "WITHOUT ROWID");
  const std::string request_before =
      test::QueryText(path, "SELECT group_concat(value, '|') FROM meta WHERE key LIKE 'profile_%'");
  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_TRUE(evaluated->problems.empty());
  EXPECT_EQ(evaluated->not_stored.rfind("cannot store the findings in " + path + ": ", 0), 0u)
      << evaluated->not_stored;
  EXPECT_NE(evaluated->not_stored.find("the results are shown all the same"), std::string::npos)
      << evaluated->not_stored;
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_metrics"), 0)
      << "no partial kernel_metrics rows";
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_findings"), 0);
  EXPECT_EQ(test::QueryText(path,
                            "SELECT group_concat(value, '|') FROM meta WHERE key LIKE 'profile_%'"),
            request_before);

  // What was not stored reads as stored for this process, and is not evaluated again.
  EXPECT_EQ(MetricRows(path).size(), MetricRows(kRecorded).size());
  auto report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();
  auto findings = store::ReadKernelFindings(**report);
  ASSERT_TRUE(findings.ok()) << findings.status().message();
  EXPECT_FALSE(findings->empty());
  g_writable_opens = 0;
  ASSERT_TRUE(EvaluateReport(path, kNvdisasmUnused).ok());
  EXPECT_EQ(g_writable_opens, 0);
}

// `gpuscope profile` after the run: what it asked for is evaluated and stored, even over
// values the report already has.
TEST_F(ReportEvaluationTest, WhatProfileAskedForIsEvaluatedAndStored) {
  const std::string path = Copy(kRecorded);
  ProfileAsk asked;
  asked.request.present = true;
  asked.request.sections = {"LaunchStats"};
  asked.request.metrics = {"dram__bytes.sum"};
  asked.request.replay = "kernel replay, device memory restored before each pass";
  asked.metric_names = {"dram__bytes.sum", "gpu__time_duration.sum"};
  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused, asked);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_EQ(evaluated->kernels, static_cast<std::size_t>(kMeasuredKernels));
  EXPECT_EQ(g_writable_opens, 1);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_metrics"), 2 * kMeasuredKernels);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_metrics WHERE metric NOT IN "
                                 "('dram__bytes.sum', 'gpu__time_duration.sum')"),
            0);
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'profile_sections'"),
            "LaunchStats");
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'profile_metrics'"),
            "dram__bytes.sum");
  // How the launches were replayed is kept and read back with the request.
  auto report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok()) << report.status().message();
  StatusOr<store::ProfileRequest> stored = store::ReadProfileRequest(**report);
  ASSERT_TRUE(stored.ok()) << stored.status().message();
  EXPECT_EQ(stored->replay, "kernel replay, device memory restored before each pass");
  EXPECT_EQ(stored->sections, std::vector<std::string>{"LaunchStats"});
}

// Damaged counter data fails its kernel only: a problem line, the other kernels evaluated,
// and the damaged kernel keeps the values it had.
TEST_F(ReportEvaluationTest, AKernelThatCannotBeEvaluatedIsAProblemAndKeepsItsValues) {
  const std::string path = Copy(kRecorded,
                                "UPDATE profiled_kernels SET counter_data = x'00112233' "
                                "WHERE profile_index = 4");
  const std::int64_t kept = test::QueryInt(
      path, "SELECT count(*) FROM kernel_metrics k JOIN profiled_kernels p ON "
            "p.id = k.profiled_kernel_id WHERE p.profile_index = 4");
  ProfileAsk asked;
  asked.request.present = true;
  asked.metric_names = {"gpu__time_duration.sum"};
  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused, asked);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_EQ(evaluated->failed, 1u);
  ASSERT_EQ(evaluated->problems.size(), 1u);
  EXPECT_EQ(evaluated->problems[0].rfind("kernel 4 (k_smem_bank_conflicts(float*, int)): ", 0), 0u)
      << evaluated->problems[0];
  EXPECT_NE(evaluated->problems[0].find("corrupt"), std::string::npos) << evaluated->problems[0];
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_metrics k JOIN profiled_kernels p "
                                 "ON p.id = k.profiled_kernel_id WHERE p.profile_index = 4"),
            kept);
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM kernel_metrics k JOIN profiled_kernels p "
                                 "ON p.id = k.profiled_kernel_id WHERE p.profile_index <> 4"),
            kMeasuredKernels - 1);
}

// Sets the counter data of profiled kernel `id` to its own image cut to `bytes`, compressed
// again (so that zlib's checksum holds and the image reaches CUPTI).
void CutCounterImage(const std::string& path, std::int64_t id, std::size_t bytes) {
  std::vector<std::uint8_t> image;
  {
    auto report = store::ReportReader::Open(path);
    ASSERT_TRUE(report.ok()) << report.status().message();
    auto read = store::ReadCounterData(**report, id);
    ASSERT_TRUE(read.ok()) << read.status().message();
    image = std::move(*read);
  }
  ASSERT_GT(image.size(), bytes);
  image.resize(bytes);
  auto compressed = store::CompressCounterData(image);
  ASSERT_TRUE(compressed.ok()) << compressed.status().message();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  sqlite3_stmt* update = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "UPDATE profiled_kernels SET counter_data = ?, "
                               "counter_data_size = ? WHERE id = ?",
                               -1, &update, nullptr),
            SQLITE_OK);
  sqlite3_bind_blob(update, 1, compressed->data(), static_cast<int>(compressed->size()),
                    SQLITE_TRANSIENT);
  sqlite3_bind_int64(update, 2, static_cast<std::int64_t>(bytes));
  sqlite3_bind_int64(update, 3, id);
  EXPECT_EQ(sqlite3_step(update), SQLITE_DONE);
  sqlite3_finalize(update);
  sqlite3_close(db);
}

// CUPTI's host library reads past the end of an image cut to 4096 bytes (found by tests/fuzz;
// it crashed `stats --page` with SIGSEGV). Evaluated apart from the reader, the crash costs only
// that kernel's values, and says so.
TEST_F(ReportEvaluationTest, AnImageThatCrashesCuptiIsAProblemNotACrash) {
  const std::string path = Copy(kRecorded, "DELETE FROM kernel_metrics");
  const std::int64_t first =
      test::QueryInt(path, "SELECT id FROM profiled_kernels WHERE profile_index = 0");
  CutCounterImage(path, first, 4096);
  StatusOr<EvaluationSummary> evaluated = EvaluateReport(path, kNvdisasmUnused);
  ASSERT_TRUE(evaluated.ok()) << evaluated.status().message();
  EXPECT_EQ(evaluated->failed, 1u);
  ASSERT_EQ(evaluated->problems.size(), 1u);
  EXPECT_EQ(evaluated->problems[0].rfind("kernel 0 (k_saxpy(long, float, float const*, float*)): ",
                                         0),
            0u)
      << evaluated->problems[0];
  EXPECT_NE(evaluated->problems[0].find("crashed"), std::string::npos) << evaluated->problems[0];
  EXPECT_EQ(test::QueryInt(path, "SELECT count(DISTINCT profiled_kernel_id) FROM kernel_metrics"),
            kMeasuredKernels - 1);
}

}  // namespace
}  // namespace gpuscope::evaluate
