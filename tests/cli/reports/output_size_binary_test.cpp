// Reports that made outputs explode, run through the real binary: "One long string takes
// everything down" (a kernel named by 10 MB: a 4.8 GB Chrome trace, an HTML report past
// 300 s, `stats --page details` at 6.5 GB) and "`report`'s size cap does not scale" (a
// million events: 773 MB of HTML where its help says about 15 MB). Whatever a report holds,
// each output stays within what the command promises. Sizes are asserted, not times: before
// the fixes these outputs were hundreds of megabytes, now they are a few.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using exporter::testing::ExecSql;
using testing::Finished;
using testing::RecordedReport;
using testing::RunGpuscope;
using testing::TempDir;

constexpr std::uint64_t kMegabyte = 1 << 20;
constexpr const char* kShortened = "1 name or other text longer than 4096 bytes is shortened";

// SQL for a text of 10 MB ("kabab...") that SQLite makes itself.
const std::string kTenMegabyteText = "'k' || replace(hex(zeroblob(5242880)), '00', 'ab')";

std::uint64_t SizeOf(const std::filesystem::path& path) {
  if (std::filesystem::is_regular_file(path)) return std::filesystem::file_size(path);
  std::uint64_t size = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
    if (entry.is_regular_file()) size += entry.file_size();
  }
  return size;
}

// The add program's report with its kernel named by 10 MB and launched `launches` times more.
std::string ReportWithATenMegabyteKernelName(const TempDir& dir, int launches) {
  std::string path = dir.File("long_name.sqlite");
  testing::WriteAddProgramReport(path, 4242);
  ExecSql(path, "UPDATE strings SET value = " + kTenMegabyteText +
                    ", demangled = NULL WHERE id = (SELECT name_id FROM kernels);"
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
                    std::to_string(launches) +
                    ") INSERT INTO kernels (name_id, start, \"end\", device_id, context_id, "
                    "stream_id, correlation_id, grid_x, grid_y, grid_z, block_x, block_y, "
                    "block_z, registers_per_thread, static_shared_memory, dynamic_shared_memory) "
                    "SELECT name_id, start + i, \"end\" + i, device_id, context_id, stream_id, "
                    "correlation_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
                    "registers_per_thread, static_shared_memory, dynamic_shared_memory "
                    "FROM (SELECT * FROM kernels LIMIT 1), n;");
  return path;
}

void ExpectWrittenWithTheShortenedWarning(const Finished& done, const std::string& command) {
  EXPECT_EQ(done.exit_code, 0) << command << ": " << done.err;
  EXPECT_NE(done.err.find(kShortened), std::string::npos) << command << ": " << done.err;
}

TEST(OutputSize, ATenMegabyteKernelNameIsWrittenShortened) {
  TempDir dir;
  // 33 launches of the name: 330 MB in every output that repeats it per launch.
  const std::string report = ReportWithATenMegabyteKernelName(dir, 32);

  Finished chrome = RunGpuscope({"export", "--format", "chrome", "-o", dir.File("t.json"), report});
  ExpectWrittenWithTheShortenedWarning(chrome, "export chrome");
  EXPECT_LT(SizeOf(dir.File("t.json")), kMegabyte);

  Finished csv = RunGpuscope({"export", "--format", "csv", "-o", dir.File("csv"), report});
  ExpectWrittenWithTheShortenedWarning(csv, "export csv");
  EXPECT_LT(SizeOf(dir.File("csv")), kMegabyte);

  Finished stats = RunGpuscope({"stats", "--report", "cuda_gpu_trace", report});
  ExpectWrittenWithTheShortenedWarning(stats, "stats -r cuda_gpu_trace");
  EXPECT_LT(stats.out.size(), kMegabyte);

  // The viewer's page (web assets included) says so among the report's warnings.
  Finished html = RunGpuscope({"report", "-o", dir.File("r.html"), report});
  EXPECT_EQ(html.exit_code, 0) << html.err;
  EXPECT_LT(SizeOf(dir.File("r.html")), 4 * kMegabyte);
  EXPECT_NE(testing::ReadWholeFile(dir.File("r.html")).find(kShortened), std::string::npos);
}

TEST(OutputSize, ATenMegabyteProfiledKernelNameIsPrintedShortened) {
  TempDir dir;
  const std::string report = dir.File("profiled.sqlite");
  std::filesystem::copy_file(RecordedReport("h100_metrics_full.sqlite"), report);
  ExecSql(report, "UPDATE strings SET value = " + kTenMegabyteText +
                      ", demangled = NULL WHERE value = '_Z7k_saxpylfPKfPf'");
  Finished details = RunGpuscope({"stats", "--page", "details", report});
  ExpectWrittenWithTheShortenedWarning(details, "stats --page details");
  // The page of the recorded report is 260 KB; each of the two saxpy launches names it.
  EXPECT_LT(details.out.size(), kMegabyte);
  EXPECT_NE(details.out.find("kababab"), std::string::npos);
}

// A million events: `report` embeds 200,000 of them and 5,000 rows of each trace table, as
// its help says: about 15 MB of events and 2.5 MB of trace rows (17.6 MB measured), not the
// 773 MB of every trace row.
TEST(OutputSize, AMillionEventReportStaysWithinTheHtmlCap) {
  TempDir dir;
  const std::string report = dir.File("million.sqlite");
  testing::WriteAddProgramReport(report, 4242);
  // 500,000 launches, each with its cudaLaunchKernel, after everything the report holds (so
  // the rows stay in start order); the process ends after the last.
  ExecSql(report,
          "CREATE TEMP TABLE base AS SELECT max(\"end\") + 1000 AS t FROM api_calls;"
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000) "
          "INSERT INTO kernels (name_id, start, \"end\", device_id, context_id, stream_id, "
          "correlation_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
          "registers_per_thread, static_shared_memory, dynamic_shared_memory) "
          "SELECT name_id, base.t + 100 * i, base.t + 100 * i + 50, device_id, context_id, "
          "stream_id, 1000 + i, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
          "registers_per_thread, static_shared_memory, dynamic_shared_memory "
          "FROM (SELECT * FROM kernels LIMIT 1), base, n;"
          "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 500000) "
          "INSERT INTO api_calls (domain, cbid, name_id, start, \"end\", process_id, thread_id, "
          "correlation_id, return_value, nested) "
          "SELECT domain, cbid, name_id, base.t + 100 * i - 60, base.t + 100 * i - 20, "
          "process_id, thread_id, 1000 + i, return_value, nested "
          "FROM (SELECT * FROM api_calls WHERE correlation_id = (SELECT correlation_id FROM "
          "kernels LIMIT 1) LIMIT 1), base, n;"
          "UPDATE process SET \"end\" = (SELECT t + 100 * 500001 FROM base);");
  Finished html = RunGpuscope({"report", "-o", dir.File("r.html"), report});
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_LT(SizeOf(dir.File("r.html")), 20 * kMegabyte);
  // What was left out is said on stderr (and on the page, under each table).
  EXPECT_NE(html.err.find("embedded 200000 of 1000"), std::string::npos) << html.err;
  EXPECT_NE(html.err.find("embedded the first 5000 of 500002 rows of cuda_gpu_trace"),
            std::string::npos)
      << html.err;
  EXPECT_NE(html.err.find("of cuda_api_trace"), std::string::npos) << html.err;
  EXPECT_NE(testing::ReadWholeFile(dir.File("r.html")).find("\"embedded_rows\":{"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::cli
