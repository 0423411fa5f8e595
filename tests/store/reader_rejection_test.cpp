// Files that are not (complete, readable, current) gpuscope reports are rejected with one
// line that names the file and says what is wrong.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "store/report_reader.h"
#include "store/testing/synthetic_trace.h"
#include "store_test_util.h"
#include "without_permission_override.h"

namespace gpuscope::store {
namespace {

// Opens `path`, expects a rejection and returns its message (checked to be one line that
// names the file).
std::string Rejection(const std::string& path) {
  auto reader = ReportReader::Open(path);
  if (reader.ok()) {
    ADD_FAILURE() << path << " was accepted";
    return "";
  }
  const std::string& message = reader.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
  return message;
}

std::string WriteRealReport(const test::TempDir& dir, std::uint64_t kernels) {
  std::string path = dir.File("real.sqlite");
  testing::SyntheticTraceOptions options;
  options.kernels = kernels;
  options.flush_every_kernels = 5000;
  EXPECT_TRUE(testing::WriteSyntheticReport(path, options).ok());
  return path;
}

TEST(ReaderRejects, MissingFile) {
  test::TempDir dir;
  std::string path = dir.File("absent.sqlite");
  EXPECT_EQ(Rejection(path), "cannot open report " + path + ": no such file");
}

TEST(ReaderRejects, Directory) {
  test::TempDir dir;
  EXPECT_EQ(Rejection(dir.path()), "cannot open report " + dir.path() + ": it is a directory");
}

TEST(ReaderRejects, UnreadableFile) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 10);
  ASSERT_EQ(chmod(path.c_str(), 0), 0);
  // Without root's permission override, so that the test runs (and means this) as root too.
  std::string message = test_support::RunWithoutPermissionOverride([&] {
    auto reader = ReportReader::Open(path);
    return reader.ok() ? std::string("accepted") : reader.status().message();
  });
  EXPECT_EQ(message, "cannot open report " + path + ": Permission denied");
}

TEST(ReaderRejects, EmptyFile) {
  test::TempDir dir;
  std::string path = dir.File("empty.sqlite");
  test::WriteFileBytes(path, {});
  EXPECT_EQ(Rejection(path),
            "cannot open report " + path + ": the file is empty, not a gpuscope report");
}

TEST(ReaderRejects, NotSQLite) {
  test::TempDir dir;
  std::string path = dir.File("text.sqlite");
  std::string text = "==1234== NVPROF is profiling process 1234, command: ./app\n";
  test::WriteFileBytes(path, std::vector<char>(text.begin(), text.end()));
  EXPECT_EQ(Rejection(path),
            "cannot open report " + path + ": not a gpuscope report (not an SQLite database)");
}

TEST(ReaderRejects, TruncatedToHalf) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 20'000);
  std::vector<char> bytes = test::ReadFileBytes(path);
  std::uint64_t full = bytes.size();
  bytes.resize(bytes.size() / 2);
  test::WriteFileBytes(path, bytes);
  EXPECT_EQ(Rejection(path), "cannot open report " + path + ": truncated: the file has " +
                                 std::to_string(full / 2) + " bytes, its header says " +
                                 std::to_string(full));
}

// Page 1 holds the schema: damage there is found when the report is opened.
TEST(ReaderRejects, CorruptSchemaPage) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 1000);
  std::vector<char> bytes = test::ReadFileBytes(path);
  for (std::size_t i = 100; i < 4096; ++i) bytes[i] = static_cast<char>(0xA5);
  test::WriteFileBytes(path, bytes);
  std::string message = Rejection(path);
  EXPECT_EQ(message.rfind("cannot open report " + path + ": corrupt or truncated (SQLite: ", 0), 0u)
      << message;
}

// Damage inside the event tables of a report up to 64 MiB is found by the full check on
// open (larger reports: by the read that reaches it, and by CheckIntegrity), never by a
// crash or by wrong rows.
TEST(ReaderRejects, CorruptDataPage) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 20'000);
  std::vector<char> bytes = test::ReadFileBytes(path);
  std::size_t page = bytes.size() / 4096 / 2;
  for (std::size_t i = page * 4096; i < (page + 1) * 4096; ++i) bytes[i] = static_cast<char>(0xFF);
  test::WriteFileBytes(path, bytes);

  auto reader = ReportReader::Open(path);
  ASSERT_FALSE(reader.ok()) << "a page of 0xFF bytes went unnoticed";
  const std::string& message = reader.status().message();
  EXPECT_EQ(message.rfind("cannot read report " + path + ": corrupt (", 0), 0u) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(ReaderRejects, ForeignSQLiteDatabase) {
  test::TempDir dir;
  std::string path = dir.File("places.sqlite");
  test::ExecSql(path, "CREATE TABLE moz_places(id INTEGER PRIMARY KEY, url TEXT)");
  EXPECT_EQ(Rejection(path), "cannot open report " + path +
                                 ": not a gpuscope report (an SQLite database of another program)");
}

TEST(ReaderRejects, NewerSchemaVersion) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 10);
  test::ExecSql(path, "PRAGMA user_version = 5");
  EXPECT_EQ(Rejection(path), "cannot open report " + path +
                                 ": written by a newer gpuscope: schema version 5, this gpuscope "
                                 "reads 1 to 4");
}

TEST(ReaderRejects, OlderSchemaVersion) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 10);
  test::ExecSql(path, "PRAGMA user_version = 0");
  EXPECT_EQ(Rejection(path), "cannot open report " + path +
                                 ": written by an older gpuscope: schema version 0, this "
                                 "gpuscope reads 1 to 4");
}

TEST(ReaderRejects, InconsistentMeta) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 10);
  test::ExecSql(path, "UPDATE meta SET value = 'x' WHERE key = 'time_base_ns'");
  EXPECT_EQ(Rejection(path), "cannot open report " + path + ": corrupt (meta.time_base_ns is 'x')");
  test::ExecSql(path,
                "DROP VIEW process_v; DROP VIEW kernels_v; DROP VIEW memcpys_v; "
                "DROP VIEW memsets_v; DROP VIEW memory_v; DROP VIEW syncs_v; "
                "DROP VIEW api_calls_v; DROP VIEW nvtx_v; DROP VIEW overheads_v; "
                "DROP VIEW time_base; DROP TABLE meta");
  EXPECT_EQ(Rejection(path),
            "cannot open report " + path + ": not a complete gpuscope report (no meta table)");
}

TEST(ReaderAccepts, ARealReport) {
  test::TempDir dir;
  std::string path = WriteRealReport(dir, 1000);
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  EXPECT_TRUE(reader.value()->CheckIntegrity().ok());
  EXPECT_EQ(reader.value()->CountRows("kernels").value(), 1000u);
}

}  // namespace
}  // namespace gpuscope::store
