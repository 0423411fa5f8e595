// What a report's schema may hold: exactly the objects gpuscope creates (the declared tables,
// report_tables.h, the views of schema.sql, and the indexes SQLite makes for the tables'
// UNIQUE and PRIMARY KEY constraints). Anything else is SQL the file brings: a trigger
// runs when gpuscope writes to the report (the evaluation caches its results there), and a
// table, view or index of another name is nothing gpuscope made. Such a file is refused whole,
// on open, before any of its SQL can run. Internal to src/store.
#pragma once

#include <sqlite3.h>

#include <string>

#include "util/status.h"

namespace gpuscope::store {

// Ok when every row of `db`'s sqlite_schema is an object gpuscope creates; otherwise
// "<context>: not a gpuscope report (it has a trigger `t` on kernel_metrics, which gpuscope
// never creates)". Errors reading the schema are "<context>: <SQLite's message>".
Status CheckSchemaObjects(sqlite3* db, const std::string& context);

}  // namespace gpuscope::store
