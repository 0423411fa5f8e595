// The schema: embedded verbatim from schema.sql, documented column by column, and what a
// fresh report carries to identify itself.
#include "store/schema.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "store/create_table_sql.h"
#include "store/report_writer.h"
#include "store/testing/sample_records.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

std::string SourceSchema() {
  // The source tree's schema.sql. Not found through __FILE__: Ninja passes sources by a
  // path relative to the build directory, and ctest runs tests elsewhere.
  std::ifstream in(std::string(GPUSCOPE_SOURCE_DIR) + "/src/store/schema.sql");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(Schema, EmbeddedTextIsTheSourceFile) {
  std::string source = SourceSchema();
  ASSERT_FALSE(source.empty());
  EXPECT_EQ(SchemaSql(), source);
}

// "Every table and every column has a comment": each column definition line inside a
// CREATE TABLE of a new report (made from the tables' declarations) carries a "--" comment.
TEST(Schema, EveryColumnIsDocumented) {
  std::istringstream lines{ReportSchemaSql()};
  std::regex table_start(R"(^CREATE TABLE (\w+) \($)");
  std::regex column(R"(^\s+("?\w+"?)\s+(INTEGER|TEXT|BLOB|REAL)\b)");
  std::string line, table;
  int columns = 0;
  while (std::getline(lines, line)) {
    std::smatch match;
    if (std::regex_search(line, match, table_start)) {
      table = match[1];
      continue;
    }
    if (line.rfind(")", 0) == 0) table.clear();
    if (!table.empty() && std::regex_search(line, match, column)) {
      ++columns;
      EXPECT_NE(line.find("--"), std::string::npos) << table << "." << match[1] << ": " << line;
    }
  }
  EXPECT_GT(columns, 150);  // the parser did see the tables
}

TEST(Schema, NewReportIdentifiesItself) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  writer.value()->Flush();
  // Read while the writer is open: not finalized yet.
  EXPECT_EQ(test::QueryInt(path, "PRAGMA user_version"), kSchemaVersion);
  EXPECT_EQ(test::QueryInt(path, "PRAGMA application_id"), kApplicationId);
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'format'"), kReportFormat);
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'schema_version'"),
            std::to_string(kSchemaVersion));
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'finalized'"), "0");
  EXPECT_FALSE(
      test::QueryText(path, "SELECT value FROM meta WHERE key = 'gpuscope_version'").empty());
  EXPECT_EQ(test::QueryText(path, "PRAGMA journal_mode"), "wal");
  ASSERT_TRUE(writer.value()->Close().ok());
  EXPECT_EQ(test::QueryText(path, "SELECT value FROM meta WHERE key = 'finalized'"), "1");
  EXPECT_EQ(test::QueryText(path, "PRAGMA journal_mode"), "delete");
}

TEST(Schema, EventTablesHaveNoIndexes) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  ASSERT_TRUE(ReportWriter::Create(path, false).ok());
  EXPECT_EQ(test::QueryInt(path,
                           "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name "
                           "IN ('kernels', 'memcpys', 'memsets', 'memory', 'syncs', 'api_calls', "
                           "'nvtx', 'overheads')"),
            0);
}

TEST(Schema, EveryViewRuns) {
  test::TempDir dir;
  std::string path = dir.File("r.sqlite");
  {
    auto writer = ReportWriter::Create(path, false);
    ASSERT_TRUE(writer.ok());
    writer.value()->OnKernel(testing::SampleKernel(0));
    writer.value()->OnApiCall(testing::SampleApiCall(0), false);
    writer.value()->OnMemcpy(testing::SampleMemcpy(0));
    writer.value()->OnNvtx(testing::SampleNvtx(1));
    ASSERT_TRUE(writer.value()->Close().ok());
  }
  for (const char* view : {"process_v", "kernels_v", "memcpys_v", "memsets_v", "memory_v",
                           "syncs_v", "api_calls_v", "nvtx_v", "overheads_v", "time_base"}) {
    test::QueryText(path, std::string("SELECT * FROM ") + view);  // fails the test on errors
  }
  // The README's kind of query: names and durations straight from a view.
  EXPECT_EQ(test::QueryText(path,
                            "SELECT name || ' ' || (\"end\" - start) FROM kernels_v "
                            "ORDER BY 1 DESC LIMIT 1"),
            "vecAdd(float const*, float const*, float*, int) 2345");
  EXPECT_EQ(test::QueryText(path, "SELECT name FROM memcpys_v"), "[CUDA memcpy DtoH]");
  EXPECT_EQ(test::QueryText(path, "SELECT domain || '/' || name FROM nvtx_v"),
            "my-domain/backward");
  EXPECT_EQ(test::QueryText(path, "SELECT domain FROM api_calls_v"), "runtime");
  // Absolute times: the view's start is the recorded timestamp.
  EXPECT_EQ(test::QueryText(path, "SELECT start FROM kernels_v"),
            std::to_string(testing::SampleKernel(0).start));
}

}  // namespace
}  // namespace gpuscope::store
