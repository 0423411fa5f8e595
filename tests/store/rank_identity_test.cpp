// Schema version 3: the process's place in a multi-rank job (boot id, rank, local rank, world
// size, the variable that gave the rank) and the clock samples, written by the production
// writer and read back; reports of versions 1 and 2 (recorded on the H200) read as "rank
// unknown, no clock samples".
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/schema.h"
#include "store/testing/report_builder.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

using testing::kTraceOrigin;
using testing::ReportBuilder;

TEST(RankIdentity, WrittenAndReadBack) {
  test::TempDir dir;
  const std::string path = dir.File("rank3.sqlite");
  ReportBuilder::Options options;
  options.boot_id = "6f1c1e2a-7b0d-4c39-9a55-0e4bb6b1c2d3";
  options.rank = 3;
  options.local_rank = 1;
  options.world_size = 16;
  options.rank_variable = "OMPI_COMM_WORLD_RANK";
  ReportBuilder report(path, options);
  ASSERT_TRUE(report.Close().ok()) << report.status().message();

  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->schema_version(), kSchemaVersion);
  const ProcessInfo& process = reader->process();
  EXPECT_EQ(process.boot_id, "6f1c1e2a-7b0d-4c39-9a55-0e4bb6b1c2d3");
  EXPECT_EQ(process.rank, 3);
  EXPECT_EQ(process.local_rank, 1);
  EXPECT_EQ(process.world_size, 16);
  EXPECT_EQ(process.rank_variable, "OMPI_COMM_WORLD_RANK");
  // Stored as documented: NULL only for unknowns, the name as text.
  EXPECT_EQ(test::QueryInt(path, "SELECT rank FROM process"), 3);
  EXPECT_EQ(test::QueryText(path, "SELECT rank_variable FROM process_v"), "OMPI_COMM_WORLD_RANK");
}

TEST(RankIdentity, UnknownStaysUnknown) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  ReportBuilder report(path);
  ASSERT_TRUE(report.Close().ok()) << report.status().message();
  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  const ProcessInfo& process = reader->process();
  EXPECT_EQ(process.boot_id, "");
  EXPECT_FALSE(process.rank.has_value());
  EXPECT_FALSE(process.local_rank.has_value());
  EXPECT_FALSE(process.world_size.has_value());
  EXPECT_EQ(process.rank_variable, "");
  EXPECT_EQ(test::QueryInt(path, "SELECT rank IS NULL AND world_size IS NULL FROM process"), 1);
  // Rank 0 is a rank, not "unknown".
  const std::string zero = dir.File("rank0.sqlite");
  ReportBuilder::Options options;
  options.rank = 0;
  ReportBuilder rank_zero(zero, options);
  ASSERT_TRUE(rank_zero.Close().ok());
  auto zero_reader = test::OpenReport(zero);
  ASSERT_NE(zero_reader, nullptr);
  EXPECT_EQ(zero_reader->process().rank, 0);
  EXPECT_EQ(zero_reader->process().rank_variable, "RANK");
}

TEST(ClockSamples, WrittenAndReadBackInOrderWithAbsoluteCuptiTime) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  ReportBuilder report(path);
  report.ClockSample(0, 35, -1'000'000);
  report.ClockSample(200, 40, -1'000'000, 2, 1'234);
  report.ClockSample(500 * testing::kMs, -60, -999'000);
  ASSERT_TRUE(report.Close().ok()) << report.status().message();

  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  const std::vector<ClockSample>& samples = reader->ClockSamples();
  ASSERT_EQ(samples.size(), 3u);
  EXPECT_EQ(samples[0].cupti_ns, kTraceOrigin);
  EXPECT_EQ(samples[0].realtime_ns, static_cast<std::int64_t>(kTraceOrigin) + 35);
  EXPECT_EQ(samples[0].monotonic_ns, static_cast<std::int64_t>(kTraceOrigin) - 1'000'000);
  EXPECT_FALSE(samples[0].device_id.has_value());
  EXPECT_FALSE(samples[0].gpu_ns.has_value());
  EXPECT_EQ(samples[1].cupti_ns, kTraceOrigin + 200);
  ASSERT_TRUE(samples[1].device_id.has_value());
  EXPECT_EQ(*samples[1].device_id, 2u);
  ASSERT_TRUE(samples[1].gpu_ns.has_value());
  EXPECT_EQ(*samples[1].gpu_ns, static_cast<std::int64_t>(kTraceOrigin) + 200 + 1'234);
  EXPECT_EQ(samples[2].cupti_ns, kTraceOrigin + 500 * testing::kMs);
  EXPECT_EQ(samples[2].realtime_ns,
            static_cast<std::int64_t>(kTraceOrigin + 500 * testing::kMs) - 60);
  EXPECT_EQ(reader->damaged_clock_samples(), 0u);
  // Stored relative like every time on CUPTI's clock; the view adds the base back.
  EXPECT_EQ(test::QueryInt(path, "SELECT cupti_ns FROM clock_samples WHERE id = 2"), 200);
  EXPECT_EQ(test::QueryText(path, "SELECT cupti_ns FROM clock_samples_v WHERE id = 2"),
            std::to_string(kTraceOrigin + 200));
  EXPECT_EQ(test::QueryInt(path, "SELECT realtime_minus_cupti FROM clock_samples_v WHERE id = 3"),
            -60);
  auto count = reader->CountRows("clock_samples");
  ASSERT_TRUE(count.ok()) << count.status().message();
  EXPECT_EQ(*count, 3u);
}

// A GPU pair's uncertainty is stored and read back, and the view shows the GPU clock's offset.
// Reports of schema 3 written before GPU pairs lack the column: they read as no uncertainty.
TEST(ClockSamples, GpuPairUncertaintyRoundTripsAndOlderSchema3ReportsReadWithout) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  ReportBuilder report(path);
  report.ClockSample(0, 35, -1'000'000);
  model::ClockSampleRecord pair;
  pair.cupti_ns = kTraceOrigin + 900;
  pair.realtime_ns = static_cast<std::int64_t>(kTraceOrigin) + 940;
  pair.monotonic_ns = 77;
  pair.device_id = 1;
  pair.gpu_ns = static_cast<std::int64_t>(kTraceOrigin) + 1'600;
  pair.gpu_uncertainty_ns = 6'500;
  report.Write(pair);
  ASSERT_TRUE(report.Close().ok()) << report.status().message();
  {
    auto reader = test::OpenReport(path);
    ASSERT_NE(reader, nullptr);
    ASSERT_EQ(reader->ClockSamples().size(), 2u);
    EXPECT_FALSE(reader->ClockSamples()[0].gpu_uncertainty_ns.has_value());
    EXPECT_EQ(reader->ClockSamples()[1].gpu_uncertainty_ns, 6'500);
    EXPECT_EQ(test::QueryInt(path, "SELECT gpu_minus_realtime FROM clock_samples_v WHERE id = 2"),
              660);
  }
  // The table and view as schema 3 had them before GPU pairs.
  test::ExecSql(path,
                "DROP VIEW clock_samples_v; "
                "CREATE TABLE old_samples AS SELECT id, cupti_ns, realtime_ns, monotonic_ns, "
                "device_id, gpu_ns FROM clock_samples; "
                "DROP TABLE clock_samples; "
                "ALTER TABLE old_samples RENAME TO clock_samples; "
                "CREATE VIEW clock_samples_v AS SELECT c.id, c.cupti_ns + t.ns AS cupti_ns, "
                "c.realtime_ns, c.monotonic_ns, c.device_id, c.gpu_ns, "
                "c.realtime_ns - (c.cupti_ns + t.ns) AS realtime_minus_cupti "
                "FROM clock_samples c CROSS JOIN time_base t");
  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->ClockSamples().size(), 2u);
  EXPECT_EQ(reader->ClockSamples()[1].gpu_ns, static_cast<std::int64_t>(kTraceOrigin) + 1'600);
  EXPECT_FALSE(reader->ClockSamples()[1].gpu_uncertainty_ns.has_value());
  EXPECT_EQ(reader->damaged_clock_samples(), 0u);
}

// A sample without CUPTI's time is counted as not written, never stored half.
TEST(ClockSamples, SampleWithoutCuptiTimeIsCountedNotStored) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  auto created = ReportWriter::Create(path, false);
  ASSERT_TRUE(created.ok()) << created.status().message();
  ReportWriter& writer = **created;
  model::ProcessRecord process;
  process.pid = 1;
  process.command_line = "./app";
  process.start = kTraceOrigin;
  writer.OnProcess(process);
  model::ClockSampleRecord untimed;
  untimed.realtime_ns = 5;
  writer.OnClockSample(untimed);
  model::ClockSampleRecord timed;
  timed.cupti_ns = kTraceOrigin + 10;
  writer.OnClockSample(timed);
  ASSERT_TRUE(writer.Close().ok()) << writer.status().message();
  EXPECT_EQ(writer.records_not_written(), 1u);
  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->ClockSamples().size(), 1u);
  EXPECT_EQ(reader->records_not_written(), 1u);
  ASSERT_EQ(reader->records_not_written_by_table().size(), 1u);
  EXPECT_EQ(reader->records_not_written_by_table()[0].first, "clock_samples");
}

// A damaged row (a host clock missing, a device id no device has) is left out and counted.
TEST(ClockSamples, DamagedRowsAreLeftOutAndCounted) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  ReportBuilder report(path);
  report.ClockSample(0).ClockSample(10).ClockSample(20, 0, 0, 1, 5);
  ASSERT_TRUE(report.Close().ok()) << report.status().message();
  // Past the NOT NULL constraint, as a hostile file would be.
  test::ExecSql(path,
                "PRAGMA ignore_check_constraints = ON; PRAGMA writable_schema = ON; "
                "UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') "
                "WHERE name = 'clock_samples'");
  test::ExecSql(path, "UPDATE clock_samples SET realtime_ns = NULL WHERE id = 1");
  test::ExecSql(path, "UPDATE clock_samples SET device_id = -4 WHERE id = 3");
  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  ASSERT_EQ(reader->ClockSamples().size(), 1u);
  EXPECT_EQ(reader->ClockSamples()[0].cupti_ns, kTraceOrigin + 10);
  EXPECT_EQ(reader->damaged_clock_samples(), 2u);
}

// The reports recorded on the H200 before version 3 (legacy/) keep reading: rank unknown, no
// samples.
TEST(RankIdentity, OlderReportsReadAsUnknownRankWithoutClockSamples) {
  for (const char* name : {"legacy/h200_add_2026-11-21.sqlite",
                           "legacy/h200_nvtx_ranges_2026-11-21.sqlite"}) {
    SCOPED_TRACE(name);
    test::TempDir dir;
    const std::string path = dir.File(std::filesystem::path(name).filename().string());
    std::filesystem::copy_file(std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/" + name, path);
    auto reader = test::OpenReport(path);
    ASSERT_NE(reader, nullptr);
    EXPECT_LT(reader->schema_version(), kFirstSchemaWithRanks);
    const ProcessInfo& process = reader->process();
    EXPECT_NE(process.pid, 0u) << "the rest of the process row still reads";
    EXPECT_FALSE(process.hostname.empty());
    EXPECT_FALSE(process.rank.has_value());
    EXPECT_FALSE(process.local_rank.has_value());
    EXPECT_FALSE(process.world_size.has_value());
    EXPECT_EQ(process.boot_id, "");
    EXPECT_EQ(process.rank_variable, "");
    EXPECT_TRUE(reader->ClockSamples().empty());
    EXPECT_EQ(reader->damaged_clock_samples(), 0u);
  }
}

// A version-2 report made from a new one by undoing version 3 (the columns and the table
// gone, the version put back) reads the same way: the reader goes by the version, and a
// version-2 file is not asked for what it cannot have.
TEST(RankIdentity, VersionTwoLayoutReadsWithoutTheNewColumns) {
  test::TempDir dir;
  const std::string path = dir.File("v2.sqlite");
  ReportBuilder::Options options;
  options.rank = 5;
  ReportBuilder report(path, options);
  report.ClockSample(0);
  ASSERT_TRUE(report.Close().ok());
  // Version 2's process table, as schema.sql declared it then.
  test::ExecSql(path,
                "DROP VIEW clock_samples_v; DROP VIEW process_v; DROP TABLE clock_samples; "
                "CREATE TABLE process2 (id INTEGER PRIMARY KEY CHECK (id = 1), "
                "pid INTEGER NOT NULL, parent_pid INTEGER NOT NULL, hostname TEXT NOT NULL, "
                "command_line TEXT NOT NULL, start INTEGER, \"end\" INTEGER); "
                "INSERT INTO process2 SELECT id, pid, parent_pid, hostname, command_line, start, "
                "\"end\" FROM process; DROP TABLE process; "
                "ALTER TABLE process2 RENAME TO process; "
                "UPDATE meta SET value = '2' WHERE key = 'schema_version'; "
                "PRAGMA user_version = 2;");
  auto reader = test::OpenReport(path);
  ASSERT_NE(reader, nullptr);
  EXPECT_EQ(reader->schema_version(), 2);
  EXPECT_EQ(reader->process().pid, 4242u);
  EXPECT_FALSE(reader->process().rank.has_value());
  EXPECT_TRUE(reader->ClockSamples().empty());
}

}  // namespace
}  // namespace gpuscope::store
