// A change made after the run to an existing, finalised report, in one transaction on a
// read-write connection of its own (the evaluation's metrics and findings, the call stacks'
// symbols): a failure part-way leaves the report as it was. Internal to src/store.
#pragma once

#include <sqlite3.h>

#include <memory>
#include <string>

#include "store/hostile_file_guard.h"
#include "util/status.h"

namespace gpuscope::store {

class ReportUpdate {
 public:
  // Opens `path` read-write, hardened as the readers' connections are (hostile_file_guard.h:
  // no code from the file, each statement's work bounded; triggers off), takes the write lock
  // (BEGIN IMMEDIATE) and refuses a file that holds what gpuscope does not create
  // (schema_objects.h). Unlike the report writer this follows a symbolic link: the caller has
  // read the report it names, and adding to it is what was asked. Nothing is created, the
  // file keeps its mode, and SQLite opens the -journal with O_NOFOLLOW and the report's mode.
  // Errors are "<context>: <SQLite's>" or "<context>: not a gpuscope report (...)".
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
  ReportUpdate() = default;
  sqlite3* db_ = nullptr;
  QueryLimit limit_;  // db_'s work limit
  bool open_transaction_ = true;
};

}  // namespace gpuscope::store
