#include "store/report_finalizer.h"

#include <sqlite3.h>

#include "store/report_file_check.h"
#include "store/schema.h"
#include "store/sqlite_util.h"
#include "util/symbolic_link_refusal.h"

namespace gpuscope::store {

namespace {

// How long to wait for a process that is just closing the report (its atexit flush).
constexpr int kBusyTimeoutMs = 2000;

Status FinalizeOpen(sqlite3* db, const std::string& path) {
  std::string context = "cannot finalize report " + path;
  sqlite3_busy_timeout(db, kBusyTimeoutMs);
  // Reading the application id also runs WAL recovery when the writer was killed.
  StatusOr<std::int64_t> application_id = QueryInt(db, "PRAGMA application_id", context);
  if (!application_id.ok()) return application_id.status();
  if (application_id.value() != kApplicationId) {
    return Status::Error(context + ": not a gpuscope report");
  }
  // Fold first: it fails while another process still has the report open, and then the
  // report must not claim to be final.
  GPUSCOPE_RETURN_IF_ERROR(FoldWalIntoFile(db, path));
  return Exec(db, "UPDATE meta SET value = '1' WHERE key = 'finalized'", context);
}

}  // namespace

Status FinalizeReport(const std::string& path) {
  // Same first checks as the reader: a clear message for a missing, unreadable or non-SQLite
  // file instead of SQLite's generic one (and no chance of creating a file).
  GPUSCOPE_RETURN_IF_ERROR(RefuseSymbolicLink(path, "report"));
  GPUSCOPE_RETURN_IF_ERROR(CheckReportFile(path, "cannot finalize report"));
  sqlite3* db = nullptr;
  // NOFOLLOW: the report the injection made is never a link (report_file_create.h); one
  // found at its path now was put there since, and is not written through.
  int rc =
      sqlite3_open_v2(path.c_str(), &db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW, nullptr);
  Status status =
      rc == SQLITE_OK ? FinalizeOpen(db, path) : SqliteError(db, "cannot finalize report " + path);
  sqlite3_close(db);
  return status;
}

}  // namespace gpuscope::store
