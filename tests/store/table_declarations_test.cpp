// The event tables are declared once (src/store/event_table_defs.h): a report gets their
// CREATE statements from the declarations alone, in schema.sql's layout, and reports recorded
// on the GPU before the declarations existed have exactly those statements (the schema did
// not change). When they disagree, these tests name the table and the line.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sstream>
#include <string>
#include <vector>

#include "store/create_table_sql.h"
#include "store/event_tables.h"
#include "store/report_writer.h"
#include "store/schema.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The statement SQLite keeps for `table` in the report at `path`, with the ";" the
// statement was created with ("" when there is no such table).
std::string StoredStatement(const std::string& path, std::string_view table) {
  return test::QueryText(path, "SELECT sql || ';' FROM sqlite_master WHERE type = 'table' AND "
                               "name = '" + std::string(table) + "'");
}

// A table as schema version 3 declared it: without the columns added since
// (api_calls.stack_id, version 4).
EventTableInfo AsInVersion3(const EventTableInfo& table, std::vector<ColumnInfo>& columns) {
  columns.clear();
  for (const ColumnInfo& column : table.columns) {
    if (table.name == "api_calls" && column.name == "stack_id") continue;
    columns.push_back(column);
  }
  return {table.name, table.start_column, columns};
}

// Each event table of the report at `path` is created exactly as its declaration says (as
// version 3 declared it, for `version_3` reports).
void ExpectDeclaredTables(const std::string& path, bool version_3 = false) {
  std::vector<ColumnInfo> columns;
  for (const EventTableInfo& declared : kEventTables) {
    const EventTableInfo table = version_3 ? AsInVersion3(declared, columns) : declared;
    SCOPED_TRACE("table " + std::string(table.name));
    const std::vector<std::string> expected = Lines(CreateTableSql(table));
    const std::vector<std::string> stored = Lines(StoredStatement(path, table.name));
    ASSERT_FALSE(stored.empty()) << path << " has no table " << table.name;
    for (std::size_t i = 0; i < std::min(expected.size(), stored.size()); ++i) {
      if (expected[i] == stored[i]) continue;
      ADD_FAILURE() << table.name << ": the declaration in src/store/event_table_defs.h and "
                    << path << " differ at line " << i + 1 << " of the statement\n  declared: "
                    << expected[i] << "\n  stored:   " << stored[i];
      break;
    }
    EXPECT_EQ(expected.size(), stored.size())
        << table.name << ": a column declared or stored on one side only";
  }
}

TEST(TableDeclarations, SchemaSqlLeavesTheEventTablesToTheirDeclarations) {
  const std::string schema(SchemaSql());
  std::size_t marker = schema.find("\n-- @event-tables\n");
  ASSERT_NE(marker, std::string::npos) << "schema.sql has no line `-- @event-tables`";
  EXPECT_EQ(schema.find("\n-- @event-tables\n", marker + 1), std::string::npos);
  for (const EventTableInfo& table : kEventTables) {
    EXPECT_EQ(schema.find("CREATE TABLE " + std::string(table.name) + " ("), std::string::npos)
        << "schema.sql writes " << table.name << " out again: it is declared once, in "
        << "event_table_defs.h";
  }
  // The report's statements: schema.sql with every declared table at the marker, in order.
  const std::string& report_schema = ReportSchemaSql();
  std::size_t at = report_schema.find(CreateTableSql(kEventTables[0]));
  EXPECT_EQ(at, marker + 1);
  for (const EventTableInfo& table : kEventTables) {
    std::size_t found = report_schema.find(CreateTableSql(table));
    ASSERT_NE(found, std::string::npos) << table.name;
    EXPECT_GE(found, at) << table.name << " out of order";
    at = found;
  }
}

TEST(TableDeclarations, ANewReportHasTheDeclaredTables) {
  test::TempDir dir;
  const std::string path = dir.File("r.sqlite");
  auto writer = ReportWriter::Create(path, false);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  ASSERT_TRUE(writer.value()->Close().ok());
  ExpectDeclaredTables(path);
}

// Reports recorded on the GPU (tests/data/reports/README.md) have the tables exactly as
// declared; those written by the hand-written schema on the H200 in November (legacy/), the
// declarations less the columns added since (schema version 4), byte for byte.
TEST(TableDeclarations, ReportsRecordedOnTheGpuHaveTheDeclaredTables) {
  const std::string reports = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/";
  for (const char* name : {"h100_metrics_full.sqlite", "h100_nvtx_ranges.sqlite"}) {
    ExpectDeclaredTables(reports + name);
  }
  for (const char* name : {"legacy/h200_add_2026-11-21.sqlite",
                           "legacy/h200_nvtx_ranges_2026-11-21.sqlite"}) {
    ExpectDeclaredTables(reports + name, /*version_3=*/true);
  }
}

TEST(TableDeclarations, StartColumnIsATimeColumnOfTheTable) {
  for (const EventTableInfo& table : kEventTables) {
    bool found = false;
    for (const ColumnInfo& column : table.columns)
      found = found || column.name == table.start_column;
    EXPECT_TRUE(found) << table.name << " has no column " << table.start_column;
  }
}

TEST(TableDeclarations, CreateTableSqlUsesSchemaLayout) {
  // A small fixed example of the layout: names padded to one column, the last column
  // without a comma, comment continuation lines under the "--".
  static constexpr ColumnInfo kColumns[] = {{"start", "INTEGER", "ns, relative"},
                                            {"end", "INTEGER", "first line\nsecond line"}};
  const EventTableInfo table{"example", "start", kColumns};
  EXPECT_EQ(CreateTableSql(table),
            "CREATE TABLE example (\n"
            "  id    INTEGER PRIMARY KEY,  -- insertion order\n"
            "  start INTEGER,  -- ns, relative\n"
            "  \"end\" INTEGER   -- first line\n"
            "                  -- second line\n"
            ");");
}

}  // namespace
}  // namespace gpuscope::store
