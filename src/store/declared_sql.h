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

// "a."c1", a."c2", ...": the declared columns for a select (`alias` "": unqualified), in
// declaration order, each named in `as_null` selected as NULL in its place (a column older
// reports lack, or a blob read alone): what ReadRecord (record_decoder.h) reads.
std::string SelectList(std::span<const ColumnInfo> columns, std::string_view alias = {},
                       std::span<const std::string_view> as_null = {});

// "NULL, NULL, ...", one per column: a table a report lacks, in a join's select.
std::string NullList(std::span<const ColumnInfo> columns);

// "SELECT <SelectList> FROM table" of every declared column; the caller adds its ORDER BY.
std::string SelectSql(const TableInfo& table, std::span<const std::string_view> as_null = {});

}  // namespace gpuscope::store
