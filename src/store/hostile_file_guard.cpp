#include "store/hostile_file_guard.h"

#include <sys/stat.h>

namespace gpuscope::store {

namespace {

// The progress handler runs every this many virtual-machine instructions.
constexpr int kInstructionsPerTick = 10000;
constexpr std::uint64_t kBaseInstructions = 20'000'000;
constexpr std::uint64_t kInstructionsPerByte = 256;

std::uint64_t FileBytes(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
}

// Non-zero interrupts the statement (SQLITE_INTERRUPT).
int Tick(void* limit) {
  auto* budget = static_cast<QueryLimit*>(limit);
  if (budget->ticks_left == 0) return 1;
  --budget->ticks_left;
  return 0;
}

// SQLITE_TRACE_STMT: a statement begins running; it gets a fresh budget. SQLite reports the
// start of each trigger program too (its text a "-- TRIGGER name" comment): that is the same
// statement going on, and must not renew the budget of the statement that fired it.
int StatementStarts(unsigned, void* limit, void*, void* text) {
  const auto* sql = static_cast<const char*>(text);
  if (sql != nullptr && sql[0] == '-' && sql[1] == '-') return 0;
  auto* budget = static_cast<QueryLimit*>(limit);
  budget->ticks_left = budget->ticks_per_statement;
  return 0;
}

Status Harden(sqlite3* db, const std::string& path, QueryLimit& limit) {
  // DQS off: a double-quoted name that is no column ("end" of a table that lost it) is an
  // error, not the string 'end' read as 0 (which made every row "end before it starts").
  if (sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr) != SQLITE_OK ||
      sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr) != SQLITE_OK ||
      sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, nullptr) != SQLITE_OK ||
      sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, nullptr) != SQLITE_OK) {
    return Status::Error("cannot open report " + path + ": SQLite refused its safe settings");
  }
  std::uint64_t bytes = FileBytes(path) + FileBytes(path + "-wal");
  limit.ticks_per_statement = (kBaseInstructions + kInstructionsPerByte * bytes) /
                              static_cast<std::uint64_t>(kInstructionsPerTick);
  limit.ticks_left = limit.ticks_per_statement;
  sqlite3_trace_v2(db, SQLITE_TRACE_STMT, StatementStarts, &limit);
  sqlite3_progress_handler(db, kInstructionsPerTick, Tick, &limit);
  return Status();
}

}  // namespace

Status HardenReadConnection(sqlite3* db, const std::string& path, QueryLimit& limit) {
  return Harden(db, path, limit);
}

Status HardenUpdateConnection(sqlite3* db, const std::string& path, QueryLimit& limit) {
  GPUSCOPE_RETURN_IF_ERROR(Harden(db, path, limit));
  // gpuscope's writes fire no trigger of its own (it creates none): one the file brings
  // would run code of the file's choosing with the report open for writing.
  if (sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr) != SQLITE_OK) {
    return Status::Error("cannot open report " + path + ": SQLite refused its safe settings");
  }
  return Status();
}

}  // namespace gpuscope::store
