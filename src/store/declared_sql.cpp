#include "store/declared_sql.h"

namespace gpuscope::store {

namespace {

// "c1", "c2", ...: quoted, as `end` must be (the readers' connections take a quoted name that
// is no column as an error, not as a string: hostile_file_guard.h).
std::string ColumnList(std::span<const ColumnInfo> columns) {
  std::string list;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c != 0) list += ", ";
    list += '"';
    list += columns[c].name;
    list += '"';
  }
  return list;
}

}  // namespace

std::string InsertSql(std::string_view table, std::span<const ColumnInfo> columns,
                      std::string_view conflict, int rows) {
  std::string sql = "INSERT ";
  if (!conflict.empty()) sql.append(conflict).append(" ");
  sql.append("INTO ").append(table).append("(").append(ColumnList(columns)).append(") VALUES ");
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

std::string SelectSql(const TableInfo& table) {
  return "SELECT " + ColumnList(table.columns) + " FROM " + std::string(table.name);
}

}  // namespace gpuscope::store
