#include "store/declared_sql.h"

#include <algorithm>

namespace gpuscope::store {

// Each name quoted, as `end` must be (the readers' connections take a quoted name that is no
// column as an error, not as a string: hostile_file_guard.h).
std::string SelectList(std::span<const ColumnInfo> columns, std::string_view alias,
                       std::span<const std::string_view> as_null) {
  std::string list;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c != 0) list += ", ";
    if (std::find(as_null.begin(), as_null.end(), columns[c].name) != as_null.end()) {
      list += "NULL";
      continue;
    }
    if (!alias.empty()) list.append(alias).append(".");
    list += '"';
    list += columns[c].name;
    list += '"';
  }
  return list;
}

std::string NullList(std::span<const ColumnInfo> columns) {
  std::string list;
  for (std::size_t c = 0; c < columns.size(); ++c) list += c == 0 ? "NULL" : ", NULL";
  return list;
}

std::string InsertSql(std::string_view table, std::span<const ColumnInfo> columns,
                      std::string_view conflict, int rows) {
  std::string sql = "INSERT ";
  if (!conflict.empty()) sql.append(conflict).append(" ");
  sql.append("INTO ").append(table).append("(").append(SelectList(columns)).append(") VALUES ");
  for (int r = 0; r < rows; ++r) {
    sql += r == 0 ? "(" : ", (";
    for (std::size_t c = 0; c < columns.size(); ++c) sql += c == 0 ? "?" : ", ?";
    sql += ")";
  }
  return sql;
}

std::string InsertSql(const TableInfo& table, std::string_view conflict, RowId row_id) {
  std::span<const ColumnInfo> columns = table.columns;
  if (row_id == RowId::kAssigned && !table.insertion_order_id) columns = columns.subspan(1);
  return InsertSql(table.name, columns, conflict);
}

std::string SelectSql(const TableInfo& table, std::span<const std::string_view> as_null) {
  return "SELECT " + SelectList(table.columns, {}, as_null) + " FROM " + std::string(table.name);
}

}  // namespace gpuscope::store
