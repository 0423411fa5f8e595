// The statements that create a report: schema.sql with, at its line `-- @event-tables`, the
// CREATE TABLE statement of each event table generated from its declaration
// (event_table_defs.h) in the layout schema.sql uses (names padded into one column, a "--"
// comment per column, which SQLite keeps). The event tables are written nowhere else, so the
// declaration and the schema cannot drift apart.
#pragma once

#include <string>

#include "store/event_tables.h"

namespace gpuscope::store {

std::string CreateTableSql(const EventTableInfo& table);

// schema.sql with every event table's CreateTableSql where it says `-- @event-tables`.
const std::string& ReportSchemaSql();

}  // namespace gpuscope::store
