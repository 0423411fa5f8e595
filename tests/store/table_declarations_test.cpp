// Every table of a report is declared once (src/store/report_tables.h lists them): a report
// gets their CREATE statements from the declarations alone, in schema.sql's layout, and
// reports recorded on the GPU before the declarations existed have the same tables (the event
// tables byte for byte; the others, first written by hand in schema.sql, the same statements
// but for comments and spacing). When they disagree, these tests name the table and the line.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "store/create_table_sql.h"
#include "store/declared_sql.h"
#include "store/record_binder.h"
#include "store/record_decoder.h"
#include "store/event_tables.h"
#include "store/report_tables.h"
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
    const std::vector<std::string> expected = Lines(CreateTableSql(AsTableInfo(table)));
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

TEST(TableDeclarations, SchemaSqlLeavesTheTablesToTheirDeclarations) {
  const std::string schema(SchemaSql());
  std::size_t marker = schema.find("\n-- @tables\n");
  ASSERT_NE(marker, std::string::npos) << "schema.sql has no line `-- @tables`";
  EXPECT_EQ(schema.find("\n-- @tables\n", marker + 1), std::string::npos);
  EXPECT_EQ(schema.find("CREATE TABLE"), std::string::npos)
      << "schema.sql writes a table out: every table is declared once, in report_tables.h";
  // The report's statements: schema.sql with every declared table at the marker, in order.
  const std::string& report_schema = ReportSchemaSql();
  std::size_t at = marker + 1;
  for (const TableInfo& table : kReportTables) {
    std::size_t found = report_schema.find(CreateTableSql(table), at);
    ASSERT_NE(found, std::string::npos) << table.name << " missing or out of order";
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
  for (const TableInfo& table : kReportTables) {
    EXPECT_EQ(StoredStatement(path, table.name), CreateTableSql(table));
  }
  EXPECT_EQ(test::QueryInt(path, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"),
            static_cast<std::int64_t>(kReportTables.size()));
}

// A statement without its comments and spacing: what SQLite makes of it.
std::string Normalized(const std::string& sql) {
  std::string text = std::regex_replace(sql, std::regex("--[^\n]*"), "");
  text = std::regex_replace(text, std::regex("\\s+"), " ");
  text = std::regex_replace(text, std::regex(" ?([(),;]) ?"), "$1");
  return std::regex_replace(text, std::regex("^ | ?;?$"), "");
}

// The tables first written by hand in schema.sql are, in the reports recorded with it (schema
// version 4, tests/data/reports/README.md), the statements their declarations make.
TEST(TableDeclarations, ReportsRecordedOnTheGpuHaveEveryDeclaredTable) {
  const std::string reports = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/";
  for (const char* name :
       {"h100_add.sqlite", "h100_metrics_full.sqlite", "h100_nvtx_ranges.sqlite"}) {
    for (const TableInfo& table : kReportTables) {
      SCOPED_TRACE(std::string(name) + ", table " + std::string(table.name));
      const std::string stored = StoredStatement(reports + name, table.name);
      ASSERT_FALSE(stored.empty());
      EXPECT_EQ(Normalized(stored), Normalized(CreateTableSql(table)));
    }
  }
}

// docs/report-schema.md lists the tables a report has: each declared one, none other.
TEST(TableDeclarations, TheDocumentationListsEveryDeclaredTable) {
  std::ifstream in(std::string(GPUSCOPE_SOURCE_DIR) + "/docs/report-schema.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::size_t begin = doc.find("\n## Tables\n");
  ASSERT_NE(begin, std::string::npos) << "docs/report-schema.md has no section Tables";
  const std::string section = doc.substr(begin, doc.find("\n## ", begin + 1) - begin);
  std::set<std::string> listed;
  const std::regex table_row(R"(^\| ([^|]+) \|)");
  const std::regex name("`(\\w+)`");
  std::istringstream lines(section);
  for (std::string line; std::getline(lines, line);) {
    std::smatch row;
    if (!std::regex_search(line, row, table_row)) continue;
    const std::string names = row[1];
    for (auto it = std::sregex_iterator(names.begin(), names.end(), name);
         it != std::sregex_iterator(); ++it) {
      listed.insert((*it)[1]);
    }
  }
  std::set<std::string> declared;
  for (const TableInfo& table : kReportTables) declared.emplace(table.name);
  EXPECT_EQ(listed, declared);
}

TEST(TableDeclarations, EveryColumnIsDocumented) {
  for (const TableInfo& table : kReportTables) {
    for (const ColumnInfo& column : table.columns) {
      EXPECT_FALSE(column.doc.empty()) << table.name << "." << column.name;
    }
  }
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
  // without a comma, comment continuation lines under the "--", the key's comment right of
  // the others.
  static constexpr ColumnInfo kColumns[] = {{"start", "INTEGER", "ns, relative"},
                                            {"end", "INTEGER", "first line\nsecond line"}};
  const EventTableInfo table{"example", "start", kColumns};
  EXPECT_EQ(CreateTableSql(AsTableInfo(table)),
            "CREATE TABLE example (\n"
            "  id    INTEGER PRIMARY KEY,  -- insertion order\n"
            "  start INTEGER,  -- ns, relative\n"
            "  \"end\" INTEGER   -- first line\n"
            "                  -- second line\n"
            ");");
}

TEST(TableDeclarations, CreateTableSqlWritesConstraintsAndTrailer) {
  static constexpr ColumnInfo kColumns[] = {{"a", "INTEGER NOT NULL", "first"},
                                            {"bb", "TEXT", "second"}};
  const TableInfo table{.name = "example",
                        .doc = "not in the statement",
                        .columns = kColumns,
                        .constraint = "PRIMARY KEY (a, bb)",
                        .trailer = "x  what x means\n   more",
                        .without_rowid = true};
  EXPECT_EQ(CreateTableSql(table, /*if_not_exists=*/true),
            "CREATE TABLE IF NOT EXISTS example (\n"
            "  a  INTEGER NOT NULL,  -- first\n"
            "  bb TEXT,              -- second\n"
            "  PRIMARY KEY (a, bb)\n"
            "  -- x  what x means\n"
            "  --    more\n"
            ") WITHOUT ROWID;");
}

// The writer's inserts and the readers' selects name the declared columns in order; a rowid
// SQLite assigns is left out of the insert.
TEST(TableDeclarations, InsertAndSelectNameTheDeclaredColumns) {
  EXPECT_EQ(InsertSql(kContextsTable, "OR REPLACE"),
            "INSERT OR REPLACE INTO contexts(\"context_id\", \"device_id\", \"null_stream_id\") "
            "VALUES (?, ?, ?)");
  EXPECT_EQ(InsertSql(kModulesTable, {}, RowId::kAssigned),
            "INSERT INTO modules(\"path\", \"start\", \"end\", \"bias\", \"build_id\") "
            "VALUES (?, ?, ?, ?, ?)");
  EXPECT_EQ(SelectSql(kContextsTable),
            "SELECT \"context_id\", \"device_id\", \"null_stream_id\" FROM contexts");
}

// The process row, made by schema.sql, is filled in by an update of the columns the writer
// binds from its record, each at the parameter an insert of the declared columns gives it.
TEST(TableDeclarations, UpdateSetsTheWrittenColumnsAtTheirParameters) {
  EXPECT_EQ(UpdateSql(kProcessTable.name, kProcessRecordColumns, "WHERE id = 1"),
            "UPDATE process SET \"pid\" = ?2, \"parent_pid\" = ?3, \"hostname\" = ?4, "
            "\"command_line\" = ?5, \"start\" = ?6, \"boot_id\" = ?8, \"rank\" = ?9, "
            "\"local_rank\" = ?10, \"world_size\" = ?11, \"rank_variable\" = ?12 WHERE id = 1");
}

// A join's select qualifies each declared column; a column a report lacks is selected as NULL
// in its place, so that every other column keeps its index.
TEST(TableDeclarations, SelectListQualifiesAndStandsInForAbsentColumns) {
  static constexpr std::string_view kAbsent[] = {"device_id"};
  EXPECT_EQ(SelectList(kContextsColumns, "c", kAbsent),
            "c.\"context_id\", NULL, c.\"null_stream_id\"");
  EXPECT_EQ(SelectSql(kContextsTable, kAbsent),
            "SELECT \"context_id\", NULL, \"null_stream_id\" FROM contexts");
  static_assert(ColumnIndex(kProcessColumns, "end") == 6);
}

// A record bound member by member from its table's declaration reads back the same, a
// negative priority included (stored as the integer, read back as the member's type).
TEST(TableDeclarations, RecordColumnsBindAndReadTheirMembers) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, CreateTableSql(kStreamsTable).c_str(), nullptr, nullptr, nullptr),
            SQLITE_OK);
  {
    StatusOr<Statement> insert = Statement::Prepare(db, InsertSql(kStreamsTable));
    ASSERT_TRUE(insert.ok());
    BindRecord(insert->get(), model::StreamRecord{.stream_id = 7, .context_id = 3, .priority = -2,
                                                  .flags = 1},
               kStreamsRecordColumns);
    ASSERT_EQ(sqlite3_step(insert->get()), SQLITE_DONE);
    StatusOr<Statement> select = Statement::Prepare(db, SelectSql(kStreamsTable));
    ASSERT_TRUE(select.ok());
    ASSERT_EQ(sqlite3_step(select->get()), SQLITE_ROW);
    model::StreamRecord read;
    ReadRecord(select->get(), read, kStreamsRecordColumns);
    EXPECT_EQ(read.stream_id, 7u);
    EXPECT_EQ(read.context_id, 3u);
    EXPECT_EQ(read.priority, -2);
    EXPECT_EQ(read.flags, 1u);
  }
  sqlite3_close(db);
}

}  // namespace
}  // namespace gpuscope::store
