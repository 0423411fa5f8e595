#include "store/report_update.h"

#include "store/sqlite_util.h"

namespace gpuscope::store {

StatusOr<std::unique_ptr<ReportUpdate>> ReportUpdate::Begin(const std::string& path,
                                                            const std::string& context) {
  sqlite3* db = nullptr;
  const int rc =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status error = SqliteError(db, context);
    sqlite3_close(db);
    return error;
  }
  sqlite3_busy_timeout(db, 5000);
  // IMMEDIATE: take the write lock now, so that no other writer slips in between the reads
  // SQLite does for the changes and the changes.
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    Status error = SqliteError(db, context);
    sqlite3_close(db);
    return error;
  }
  return std::unique_ptr<ReportUpdate>(new ReportUpdate(db));
}

ReportUpdate::~ReportUpdate() {
  if (open_transaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(db_);
}

Status ReportUpdate::Fail(const std::string& context) {
  Status error = SqliteError(db_, context);
  if (open_transaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  open_transaction_ = false;
  return error;
}

Status ReportUpdate::Commit(const std::string& context) {
  if (sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) return Fail(context);
  open_transaction_ = false;
  sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  return Status();
}

}  // namespace gpuscope::store
