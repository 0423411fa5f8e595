#include "store/insert_sql.h"

namespace gpuscope::store {

std::string InsertSql(std::string_view table, std::span<const ColumnInfo> columns,
                      std::string_view conflict, int rows) {
  std::string sql = "INSERT ";
  if (!conflict.empty()) sql.append(conflict).append(" ");
  sql.append("INTO ").append(table).append("(");
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c != 0) sql += ", ";
    sql += '"';
    sql += columns[c].name;
    sql += '"';
  }
  sql += ") VALUES ";
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

}  // namespace gpuscope::store
