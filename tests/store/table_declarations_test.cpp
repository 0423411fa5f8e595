// The event tables are declared once (src/store/event_table_defs.h); schema.sql, the
// documented schema the writer executes, must say exactly what the declarations say. When they
// disagree, these tests name the table and the column.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "store/event_tables.h"
#include "store/schema.h"
#include "store/create_table_sql.h"

namespace gpuscope::store {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The CREATE TABLE statement of `table` as schema.sql writes it ("" when it has none).
std::string StatementInSchema(std::string_view table) {
  const std::string schema(SchemaSql());
  const std::string opening = "CREATE TABLE " + std::string(table) + " (\n";
  std::size_t begin = schema.find(opening);
  if (begin == std::string::npos) return "";
  std::size_t end = schema.find("\n);", begin);
  return end == std::string::npos ? "" : schema.substr(begin, end + 3 - begin);
}

// The column a line of a CREATE TABLE statement defines ("" for other lines).
std::string ColumnOf(const std::string& line) {
  if (line.rfind("  ", 0) != 0 || line.size() < 3 || line[2] == ' ') return "";
  return line.substr(2, line.find(' ', 2) - 2);
}

TEST(TableDeclarations, SchemaSqlSaysWhatTheDeclarationsSay) {
  for (const EventTableInfo& table : kEventTables) {
    SCOPED_TRACE("table " + std::string(table.name));
    const std::string documented = StatementInSchema(table.name);
    ASSERT_FALSE(documented.empty()) << "schema.sql has no CREATE TABLE " << table.name;
    const std::vector<std::string> expected = Lines(CreateTableSql(table));
    const std::vector<std::string> actual = Lines(documented);
    for (std::size_t i = 0; i < std::min(expected.size(), actual.size()); ++i) {
      if (expected[i] == actual[i]) continue;
      std::string column =
          ColumnOf(expected[i]).empty() ? ColumnOf(actual[i]) : ColumnOf(expected[i]);
      ADD_FAILURE() << table.name << "." << column
                    << ": schema.sql and the declaration in src/store/event_table_defs.h "
                       "differ at line "
                    << i + 1 << " of the statement\n  declared:   " << expected[i]
                    << "\n  schema.sql: " << actual[i]
                    << "\nGenerated statement (CreateTableSql):\n"
                    << CreateTableSql(table);
      break;
    }
    EXPECT_EQ(expected.size(), actual.size())
        << table.name << ": schema.sql's statement and the declaration have different numbers "
        << "of lines (a column added or removed on one side only)";
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
