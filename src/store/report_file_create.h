// Makes the report's file ready for the writer. Two promises live here: a report is never
// written through a symbolic link (`run -f -o r.sqlite` with r.sqlite a link would otherwise
// truncate and overwrite the file it names), and a report is readable by its owner only
// (0600) unless the user asked for the umask's permissions (util/report_permissions.h).
// SQLite's -wal, -shm and -journal files take the main file's mode and are opened by SQLite
// with O_NOFOLLOW, so the file made here decides for them too.
#pragma once

#include <string>

#include "util/report_permissions.h"
#include "util/status.h"

namespace gpuscope::store {

// Leaves an empty regular file at `path` for SQLite to turn into a new report: refuses a
// symbolic link, a directory or anything else that is not a regular file, and an existing
// file unless `overwrite`; deletes SQLite's companion files (-wal, -shm, -journal; a link
// there is removed, not followed: a -wal left without its database would be applied to
// ours); creates the file with `permissions`' mode, or empties an existing one in place
// (never unlinked, so a name claimed with O_EXCL stays claimed: it keeps its inode from the
// claim to the finished report). kPrivate also makes an existing file 0600 before emptying
// it; kUmask leaves an existing file's mode as it was. Errors are one line naming the path.
Status PrepareReportFile(const std::string& path, bool overwrite, ReportPermissions permissions);

}  // namespace gpuscope::store
