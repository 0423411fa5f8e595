// SQL-level damage to a report: what a buggy writer, a hand edit or another tool's schema could
// leave in a file that is still a valid SQLite database. The tables and columns are read from
// the file itself (sqlite_master, pragma_table_info), so new tables are mutated without a
// change here. The kinds: NULLs; huge, negative and non-finite numbers; 1 MB strings; strings
// with NUL, control characters and invalid UTF-8; text and blobs in number columns; rows that
// end before they start; duplicated ids (the table rebuilt without its primary key); dropped
// tables and columns; deleted rows; a table replaced by a view (also a recursive one); a wrong
// schema version, format or time base.
#pragma once

#include <optional>
#include <string>

#include "random_source.h"

namespace gpuscope::fuzz {

// Applies one SQL mutation to the SQLite database at `path` (opened read-write, changed in one
// transaction) and returns the SQL that was run, to be replayed with the sqlite3 shell. Draws
// again when a drawn mutation is not applicable (a constraint, a table without rows); nullopt
// when the file is not a database SQLite can change, or nothing applied after a few draws.
std::optional<std::string> MutateSql(const std::string& path, RandomSource& random);

}  // namespace gpuscope::fuzz
