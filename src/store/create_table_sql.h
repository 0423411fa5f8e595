// The statements that create a report: schema.sql with, at its line `-- @tables`, the CREATE
// TABLE statement of every table generated from its declaration (report_tables.h), each after
// its documentation, in the layout schema.sql had (names padded into one column, a "--"
// comment per column, which SQLite keeps). The tables are written nowhere else, so the
// declarations and the schema cannot drift apart.
#pragma once

#include <string>
#include <string_view>

#include "store/table_info.h"

namespace gpuscope::store {

// `CREATE TABLE <name> (...)`; `if_not_exists` makes it CREATE TABLE IF NOT EXISTS, for the
// tables the evaluation adds to reports older than them.
std::string CreateTableSql(const TableInfo& table, bool if_not_exists = false);

// schema.sql with every declared table (its doc as "--" lines, then its CreateTableSql) where
// it says `-- @tables`.
const std::string& ReportSchemaSql();

}  // namespace gpuscope::store
