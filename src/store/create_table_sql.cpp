#include "store/create_table_sql.h"

#include "store/schema.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace gpuscope::store {

namespace {

// `end` is an SQL keyword; the other column names need no quotes.
std::string ColumnNameInSql(std::string_view name) {
  return name == "end" ? "\"end\"" : std::string(name);
}

struct Line {
  std::string name;
  std::string type;  // with its constraints
  std::string_view doc;
};

}  // namespace

std::string CreateTableSql(const EventTableInfo& table) {
  std::vector<Line> lines = {{"id", "INTEGER PRIMARY KEY", "insertion order"}};
  for (const ColumnInfo& column : table.columns) {
    lines.push_back({ColumnNameInSql(column.name), std::string(column.sql_type), column.doc});
  }
  std::size_t width = 0;
  for (const Line& line : lines) width = std::max(width, line.name.size());

  std::string sql = "CREATE TABLE " + std::string(table.name) + " (\n";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    std::string text = "  " + line.name + std::string(width + 1 - line.name.size(), ' ') +
                       line.type + (i + 1 < lines.size() ? ",  " : "   ");
    // Continuation lines of a comment start under its "--".
    const std::string indent(text.size(), ' ');
    std::string_view doc = line.doc;
    for (bool first = true;; first = false) {
      std::size_t newline = doc.find('\n');
      sql += (first ? text : indent) + "-- " + std::string(doc.substr(0, newline)) + "\n";
      if (newline == std::string_view::npos) break;
      doc.remove_prefix(newline + 1);
    }
  }
  sql += ");";
  return sql;
}

const std::string& ReportSchemaSql() {
  static const std::string sql = [] {
    constexpr std::string_view kMarker = "\n-- @event-tables\n";
    const std::string_view schema = SchemaSql();
    const std::size_t at = schema.find(kMarker);
    std::string tables;
    for (const EventTableInfo& table : kEventTables) tables += "\n" + CreateTableSql(table) + "\n";
    // Without the marker (a broken build) the tables still come first: a report is never
    // created without them, and the schema tests name the missing marker.
    if (at == std::string_view::npos) return tables + std::string(schema);
    return std::string(schema.substr(0, at + 1)) + tables.substr(1) +
           std::string(schema.substr(at + kMarker.size() - 1));
  }();
  return sql;
}

}  // namespace gpuscope::store
