// Reports that are valid SQLite but hostile to the reader (issue 14, "Readers that never
// crash"): whatever the file holds, the reader answers with its rows or a one-line error,
// quickly.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/kernel_launch_groups.h"
#include "store/reader_threads.h"
#include "store/report_reader.h"
#include "store/table_rows.h"
#include "test_reports.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

using Clock = std::chrono::steady_clock;

std::string WriteReport(const test::TempDir& dir, std::uint64_t kernels) {
  std::string path = dir.File("hostile.sqlite");
  exporter::testing::WriteSyntheticReport(path, kernels);
  return path;
}

// Counts the API calls of `path`, with `threads` reader threads; fails the test when that
// takes more than a few seconds (the id arithmetic once made it run for minutes).
std::uint64_t CountApiCalls(const std::string& path, unsigned threads) {
  SetReaderThreads(threads);
  Clock::time_point start = Clock::now();
  auto reader = ReportReader::Open(path);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  std::uint64_t calls = 0;
  if (reader.ok()) {
    Status read = reader.value()->ForEachApiCall([&](const ApiCallRow&) {
      ++calls;
      return true;
    });
    EXPECT_TRUE(read.ok()) << read.message();
  }
  SetReaderThreads(std::nullopt);
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  return calls;
}

class ExtremeIds : public ::testing::TestWithParam<unsigned> {};

// Ids near INT64_MAX, spanning 1..INT64_MAX, and from -INT64_MAX to INT64_MAX.
TEST_P(ExtremeIds, EveryRowIsRead) {
  for (const char* sql :
       {"UPDATE api_calls SET id=4611686018427387904 WHERE id=(SELECT max(id) FROM api_calls)",
        "UPDATE api_calls SET id=9223372036854775807 WHERE id=(SELECT max(id) FROM api_calls)",
        "UPDATE api_calls SET id=-9223372036854775807 WHERE id=(SELECT min(id) FROM api_calls);"
        "UPDATE api_calls SET id=9223372036854775807 WHERE id=(SELECT max(id) FROM api_calls)"}) {
    test::TempDir dir;
    std::string path = WriteReport(dir, 100);
    test::ExecSql(path, sql);
    EXPECT_EQ(CountApiCalls(path, GetParam()), 100u) << sql;
  }
}

TEST_P(ExtremeIds, DenseIdsAcrossManyChunksKeepEveryRow) {
  test::TempDir dir;
  std::string path = WriteReport(dir, 100'000);
  EXPECT_EQ(CountApiCalls(path, GetParam()), 100'000u);
}

// 0: read on the calling thread; 3: worker threads.
INSTANTIATE_TEST_SUITE_P(ReaderThreads, ExtremeIds, ::testing::Values(0u, 3u));

// A view in place of a table would run whatever SQL the file brings on every read.
TEST(HostileSchema, ARecursiveViewInPlaceOfATableIsRejectedOnOpen) {
  test::TempDir dir;
  std::string path = WriteReport(dir, 10);
  test::ExecSql(path,
                "DROP TABLE counters; CREATE VIEW counters AS WITH RECURSIVE r(n) AS "
                "(SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'x' AS name, n AS value FROM r");
  Clock::time_point start = Clock::now();
  auto reader = ReportReader::Open(path);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message(),
            "cannot open report " + path + ": not a gpuscope report (counters is a view, not a table)");
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
}

// The schema's own views may be replaced too; a query that would never end is stopped by
// the connection's work limit.
TEST(HostileSchema, AQueryThatNeverEndsBecomesAnError) {
  test::TempDir dir;
  std::string path = WriteReport(dir, 10);
  std::string view = test::QueryText(path, "SELECT sql FROM sqlite_master WHERE name='kernels_v'");
  ASSERT_EQ(view.rfind("CREATE VIEW kernels_v ", 0), 0u) << view;
  // In place, under its own name: a view of another name is refused on open (schema_objects.h).
  const std::string select = view.substr(view.find(" AS") + 3);
  test::ExecSql(path, "DROP VIEW kernels_v; CREATE VIEW kernels_v AS WITH RECURSIVE r(n) AS "
                      "(SELECT 1 UNION ALL SELECT n + 1 FROM r) "
                      "SELECT base.* FROM (" + select + "\n) AS base, r WHERE n < 0");
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  Clock::time_point start = Clock::now();
  // The CSV export reads the view (the kernel pages group the kernels table itself).
  Status read =
      ForEachExportedRow(**reader, "kernels", nullptr, [](const TableRow&) { return true; });
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("did not finish within its work limit"), std::string::npos)
      << read.message();
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(20));
}

// A column dropped from an event table (found by tests/fuzz): SQLite's old misfeature reads a
// double-quoted name that is no column as a string, so "end" became the text 'end' (0) and
// every API call was skipped as "ending before it starts". The read connection turns that
// off: the missing column is an error that names it.
TEST(HostileSchema, AMissingColumnIsAnErrorNotAStringLiteral) {
  test::TempDir dir;
  std::string path = WriteReport(dir, 10);
  test::ExecSql(path, "PRAGMA legacy_alter_table = ON; ALTER TABLE api_calls DROP COLUMN \"end\"");
  auto reader = ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::uint64_t calls = 0;
  Status read = reader.value()->ForEachApiCall([&](const ApiCallRow&) {
    ++calls;
    return true;
  });
  ASSERT_FALSE(read.ok()) << calls << " API calls read";
  EXPECT_NE(read.message().find("no such column"), std::string::npos) << read.message();
  EXPECT_NE(read.message().find("end"), std::string::npos) << read.message();
}

// A leaf page whose cell count is one short: SQLite reads the other rows without an error
// and the last one vanishes; the structural check on open catches it.
TEST(HostileBytes, ACellCountCutShortIsCaughtOnOpen) {
  test::TempDir dir;
  std::string path = WriteReport(dir, 10);
  std::int64_t page_size = test::QueryInt(path, "PRAGMA page_size");
  std::int64_t root = test::QueryInt(path, "SELECT rootpage FROM sqlite_master WHERE name='kernels'");
  ASSERT_GT(root, 1);
  std::vector<char> bytes = test::ReadFileBytes(path);
  std::size_t header = static_cast<std::size_t>((root - 1) * page_size);
  ASSERT_EQ(bytes[header], 0x0d);  // a table leaf page
  auto cells = static_cast<unsigned>(static_cast<unsigned char>(bytes[header + 3]) << 8 |
                                     static_cast<unsigned char>(bytes[header + 4]));
  ASSERT_GT(cells, 1u);
  bytes[header + 3] = static_cast<char>((cells - 1) >> 8);
  bytes[header + 4] = static_cast<char>((cells - 1) & 0xff);
  test::WriteFileBytes(path, bytes);
  auto reader = ReportReader::Open(path);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().message().rfind("cannot read report " + path + ": corrupt (", 0), 0u)
      << reader.status().message();
  EXPECT_EQ(reader.status().message().find('\n'), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::store
