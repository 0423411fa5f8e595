// First checks on a file that should be a report, before SQLite sees it: SQLite's own
// errors for these cases ("unable to open database file", "file is not a database") do not
// say what is wrong, and it does not notice a truncated file until it reads a missing page.
#pragma once

#include <string>

#include "util/status.h"

namespace gpuscope::store {

// Ok when `path` is a readable, complete-looking SQLite database file: it exists, is a
// regular file, starts with SQLite's header, and is at least as long as its header says.
// Errors read "<action> <path>: <reason>", e.g. "cannot open report r.sqlite: no such file".
Status CheckReportFile(const std::string& path, const std::string& action);

// Whether `path` (symlinks followed) holds a gpuscope report, from its first 100 bytes: an
// SQLite header with the report's application_id (schema.h). A report still being written
// is in WAL mode, where the header on disk keeps application_id 0 until a checkpoint; an
// SQLite file with a "-wal" companion counts too. Commands that write other files use this
// to refuse to overwrite a report that a mistyped output path names.
bool IsGpuscopeReport(const std::string& path);

}  // namespace gpuscope::store
