#include "store/create_table_sql.h"

#include <algorithm>
#include <vector>

#include "store/report_tables.h"
#include "store/schema.h"

namespace gpuscope::store {

namespace {

// `end` is an SQL keyword; the other column names need no quotes.
std::string ColumnNameInSql(std::string_view name) {
  return name == "end" ? "\"end\"" : std::string(name);
}

struct Line {
  std::string name;
  std::string_view type;  // with its constraints
  std::string_view doc;
};

// Each line of `text` ('\n' separated) as `prefix` + "-- " + line.
std::string CommentLines(std::string_view prefix, std::string_view text) {
  const std::string indent(prefix.size(), ' ');
  std::string comment;
  for (bool first = true;; first = false) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    comment += (first ? std::string(prefix) : indent) + (line.empty() ? "--" : "-- ") +
               std::string(line) + "\n";
    if (newline == std::string_view::npos) break;
    text.remove_prefix(newline + 1);
  }
  return comment;
}

}  // namespace

std::string CreateTableSql(const TableInfo& table, bool if_not_exists) {
  std::vector<Line> lines;
  if (table.insertion_order_id) {
    lines.push_back({"id", kInsertionOrderId.sql_type, kInsertionOrderId.doc});
  }
  for (const ColumnInfo& column : table.columns) {
    lines.push_back({ColumnNameInSql(column.name), column.sql_type, column.doc});
  }
  // Names padded into one column, and the comments into one after the types; a key's longer
  // type leaves its comment further right, as schema.sql had it.
  std::size_t width = 0;
  std::size_t type_width = 0;
  for (const Line& line : lines) {
    width = std::max(width, line.name.size());
    if (line.type.find("PRIMARY KEY") == std::string_view::npos) {
      type_width = std::max(type_width, line.type.size());
    }
  }

  std::string sql = std::string(if_not_exists ? "CREATE TABLE IF NOT EXISTS " : "CREATE TABLE ") +
                    std::string(table.name) + " (\n";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const Line& line = lines[i];
    const bool more = i + 1 < lines.size() || !table.constraint.empty();
    // Continuation lines of a comment start under its "--".
    const std::size_t type_padding = type_width - std::min(type_width, line.type.size());
    sql += CommentLines("  " + line.name + std::string(width + 1 - line.name.size(), ' ') +
                            std::string(line.type) + (more ? "," : " ") +
                            std::string(type_padding + 2, ' '),
                        line.doc);
  }
  if (!table.constraint.empty()) sql += "  " + std::string(table.constraint) + "\n";
  if (!table.trailer.empty()) sql += CommentLines("  ", table.trailer);
  sql += table.without_rowid ? ") WITHOUT ROWID;" : ");";
  return sql;
}

const std::string& ReportSchemaSql() {
  static const std::string sql = [] {
    constexpr std::string_view kMarker = "\n-- @tables\n";
    const std::string_view schema = SchemaSql();
    const std::size_t at = schema.find(kMarker);
    std::string tables;
    for (const TableInfo& table : kReportTables) {
      tables += "\n" + (table.doc.empty() ? "" : CommentLines("", table.doc)) +
                CreateTableSql(table) + "\n";
    }
    // Without the marker (a broken build) the tables still come first: a report is never
    // created without them, and the schema tests name the missing marker.
    if (at == std::string_view::npos) return tables + std::string(schema);
    return std::string(schema.substr(0, at + 1)) + tables.substr(1) +
           std::string(schema.substr(at + kMarker.size() - 1));
  }();
  return sql;
}

}  // namespace gpuscope::store
