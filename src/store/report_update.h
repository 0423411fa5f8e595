// A change made after the run to an existing, finalised report, in one transaction on a
// read-write connection of its own (the evaluation's metrics and findings, the call stacks'
// symbols): a failure part-way leaves the report as it was. Internal to src/store.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>

#include "util/status.h"

namespace gpuscope::store {

class ReportUpdate {
 public:
  // Opens `path` read-write and takes the write lock (BEGIN IMMEDIATE). Unlike the report
  // writer this follows a symbolic link: the caller has read the report it names, and adding
  // to it is what was asked. Nothing is created, the file keeps its mode, and SQLite opens
  // the -journal with O_NOFOLLOW and the report's mode. Errors are "<context>: <SQLite's>".
  static StatusOr<std::unique_ptr<ReportUpdate>> Begin(const std::string& path,
                                                       const std::string& context);
  ~ReportUpdate();  // rolls back what was not committed
  ReportUpdate(const ReportUpdate&) = delete;
  ReportUpdate& operator=(const ReportUpdate&) = delete;

  sqlite3* db() const { return db_; }
  // Commits, then folds a WAL back into the file (the report stays one self-contained file,
  // as the launcher's finaliser left it). On error everything is rolled back.
  Status Commit(const std::string& context);
  // The error of the last SQLite call, with `context`; rolls back.
  Status Fail(const std::string& context);

 private:
  explicit ReportUpdate(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
  bool open_transaction_ = true;
};

}  // namespace gpuscope::store
