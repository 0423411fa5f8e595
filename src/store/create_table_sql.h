// The CREATE TABLE statement of an event table, generated from its declaration in the
// layout schema.sql uses (names padded into one column, a "--" comment per column). A test
// compares it with schema.sql, which stays the file the writer executes: the declaration
// and the documented schema cannot drift apart.
#pragma once

#include <string>

#include "store/event_tables.h"

namespace gpuscope::store {

std::string CreateTableSql(const EventTableInfo& table);

}  // namespace gpuscope::store
