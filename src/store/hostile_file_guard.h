// Reading files we did not write: a "report" may be any SQLite database, crafted or
// damaged. These settings keep a connection from running code the file brings (SQL
// functions with side effects in views, triggers) and bound the work of each statement,
// so that a view or a damaged b-tree that loops forever becomes an error instead of a hang.
// Internal to src/store.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>

#include "util/status.h"

namespace gpuscope::store {

// The work budget of one connection: each statement run may take `ticks_per_statement`
// progress-handler calls. Owned next to the connection; must outlive it.
struct QueryLimit {
  std::uint64_t ticks_per_statement = 0;
  std::uint64_t ticks_left = 0;
};

// Turns off trusted_schema and double-quoted string literals, turns on defensive mode and
// installs the work limit on `db`, a read-only connection to `path`. The limit is generous: 2 * 10^7 virtual-machine
// instructions plus 256 per byte of the file (and its WAL), per statement, where reading a
// whole table costs a few per byte; only a query that never ends reaches it.
Status HardenReadConnection(sqlite3* db, const std::string& path, QueryLimit& limit);

// The same settings and work limit on `db`, a read-write connection to `path` that adds to
// the report (report_update.h), with triggers off: a write must run no SQL the file brings.
Status HardenUpdateConnection(sqlite3* db, const std::string& path, QueryLimit& limit);

}  // namespace gpuscope::store
