// The INSERT and SELECT statements of the report's tables, made from their declarations
// (report_tables.h) so that a statement's column list is the table's: values are bound, and
// result columns read, in declaration order (?1 and column 0 the first column). Statements are
// prepared once, so making their text costs nothing per row.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "store/table_info.h"

namespace gpuscope::store {

// Whether the insert gives the table's first column (an INTEGER PRIMARY KEY) or leaves it to
// SQLite, which numbers rows in insertion order.
enum class RowId { kGiven, kAssigned };

// "INSERT <conflict> INTO table("c1", "c2", ...) VALUES (?, ?, ...)", `rows` value lists,
// for `columns`; `conflict` is "", "OR REPLACE" or "OR IGNORE".
std::string InsertSql(std::string_view table, std::span<const ColumnInfo> columns,
                      std::string_view conflict = {}, int rows = 1);

// The insert of one row of every declared column (but a rowid SQLite assigns).
std::string InsertSql(const TableInfo& table, std::string_view conflict = {},
                      RowId row_id = RowId::kGiven);

// "SELECT "c1", "c2", ... FROM table" of every declared column; the caller adds its ORDER BY.
std::string SelectSql(const TableInfo& table);

}  // namespace gpuscope::store
