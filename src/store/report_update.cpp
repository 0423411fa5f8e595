#include "store/report_update.h"

#include "store/schema_objects.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

StatusOr<std::unique_ptr<ReportUpdate>> ReportUpdate::Begin(const std::string& path,
                                                            const std::string& context) {
  std::unique_ptr<ReportUpdate> update(new ReportUpdate());
  const int rc = sqlite3_open_v2(path.c_str(), &update->db_,
                                 SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    Status error = SqliteError(update->db_, context);
    update->open_transaction_ = false;
    return error;
  }
  // The file was read through a hardened connection; writing to it must be no less careful.
  Status hardened = HardenUpdateConnection(update->db_, path, update->limit_);
  if (!hardened.ok()) {
    update->open_transaction_ = false;
    return hardened;
  }
  sqlite3_busy_timeout(update->db_, 5000);
  // IMMEDIATE: take the write lock now, so that no other writer slips in between the reads
  // SQLite does for the changes and the changes.
  if (sqlite3_exec(update->db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    update->open_transaction_ = false;
    return SqliteError(update->db_, context);
  }
  // Checked again under the write lock: the file may have changed since it was read, and
  // whatever it holds now is what the changes meet. (Refused: the destructor rolls back.)
  GPUSCOPE_RETURN_IF_ERROR(CheckSchemaObjects(update->db_, context));
  return update;
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
