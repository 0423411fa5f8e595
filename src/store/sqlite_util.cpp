#include "store/sqlite_util.h"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <cstring>

namespace gpuscope::store {

namespace {

constexpr const char* kWorkLimitReached = "a query on it did not finish within its work limit";

}  // namespace

StatusOr<Statement> Statement::Prepare(sqlite3* db, std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  // PREPARE_PERSISTENT: these statements live as long as the connection and run millions
  // of times; SQLite then keeps their memory out of its short-lived lookaside pool.
  int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()),
                              SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return SqliteError(db, "cannot prepare statement");
  }
  return Statement(stmt);
}

Status SqliteError(sqlite3* db, std::string_view context) {
  std::string message(context);
  message += ": ";
  if (db != nullptr && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_INTERRUPT) {
    message += kWorkLimitReached;  // hostile_file_guard.h's limit, not a user's interrupt
  } else {
    message += db != nullptr ? sqlite3_errmsg(db) : "out of memory";
  }
  return Status::Error(std::move(message));
}

Status ReportReadError(sqlite3* db, std::string_view action, const std::string& path) {
  std::string message(action);
  message += " " + path + ": ";
  int code = db != nullptr ? (sqlite3_extended_errcode(db) & 0xff) : SQLITE_NOMEM;
  const char* detail = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
  if (code == SQLITE_INTERRUPT) {
    // The work limit of hostile_file_guard.h stopped a query that would not end.
    message += "corrupt (";
    message += kWorkLimitReached;
    message += ")";
  } else if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB) {
    message += "corrupt or truncated (SQLite: ";
    message += detail;
    message += ")";
  } else {
    message += "SQLite: ";
    message += detail;
  }
  return Status::Error(std::move(message));
}

Status Exec(sqlite3* db, std::string_view sql, std::string_view context) {
  std::string text(sql);  // sqlite3_exec needs a NUL-terminated string
  char* error = nullptr;
  int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, &error);
  if (rc == SQLITE_OK) return Status();
  std::string message(context);
  message += ": ";
  message += error != nullptr ? error : sqlite3_errstr(rc);
  sqlite3_free(error);
  return Status::Error(std::move(message));
}

StatusOr<std::int64_t> QueryInt(sqlite3* db, std::string_view sql, std::string_view context) {
  StatusOr<Statement> stmt = Statement::Prepare(db, sql);
  if (!stmt.ok()) return SqliteError(db, context);
  int rc = sqlite3_step(stmt->get());
  if (rc != SQLITE_ROW) {
    if (rc == SQLITE_DONE) return Status::Error(std::string(context) + ": no result");
    return SqliteError(db, context);
  }
  return static_cast<std::int64_t>(sqlite3_column_int64(stmt->get(), 0));
}

bool HasRoomToFoldWal(const std::string& path) {
  struct stat wal {};
  if (stat((path + "-wal").c_str(), &wal) != 0 || wal.st_size == 0) return true;
  struct statvfs filesystem {};
  if (statvfs(path.c_str(), &filesystem) != 0) return true;
  const auto free_bytes = static_cast<unsigned long long>(filesystem.f_bavail) *
                          static_cast<unsigned long long>(filesystem.f_frsize);
  return free_bytes >= static_cast<unsigned long long>(wal.st_size);
}

Status FoldWalIntoFile(sqlite3* db, const std::string& path) {
  std::string context = "cannot finalize report " + path;
  if (!HasRoomToFoldWal(path)) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    return Status::Error(context + ": the filesystem has no room to fold its log into it (it "
                                   "stays " + path + " with " + path + "-wal, readable as is)");
  }
  {
    StatusOr<Statement> checkpoint = Statement::Prepare(db, "PRAGMA wal_checkpoint(TRUNCATE)");
    if (!checkpoint.ok()) return SqliteError(db, context);
    int rc = sqlite3_step(checkpoint->get());
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) return SqliteError(db, context);
    // Column 0 is 1 when another connection kept the checkpoint from completing.
    if (rc == SQLITE_ROW && sqlite3_column_int(checkpoint->get(), 0) != 0) {
      return Status::Error(context + ": another process still has it open");
    }
  }
  StatusOr<Statement> mode = Statement::Prepare(db, "PRAGMA journal_mode = DELETE");
  if (!mode.ok()) return SqliteError(db, context);
  int rc = sqlite3_step(mode->get());
  if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) {
    return Status::Error(context + ": another process still has it open");
  }
  if (rc != SQLITE_ROW) return SqliteError(db, context);
  // SQLite answers with the mode in force: still "wal" when it could not switch.
  const auto* now = reinterpret_cast<const char*>(sqlite3_column_text(mode->get(), 0));
  if (now == nullptr || std::strcmp(now, "delete") != 0) {
    return Status::Error(context + ": another process still has it open");
  }
  return Status();
}

}  // namespace gpuscope::store
