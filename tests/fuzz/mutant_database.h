// The mutation engine's own read-write connection to a mutant. Earlier mutations may have left a
// recursive view where a table was, so the engine's queries are bounded too: past a budget of
// virtual-machine instructions a statement is interrupted and the mutation is not applied.
#pragma once

#include <sqlite3.h>

#include <string>

namespace gpuscope::fuzz {

class MutantDatabase {
 public:
  explicit MutantDatabase(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
      sqlite3_close(db_);
      db_ = nullptr;
      return;
    }
    sqlite3_progress_handler(db_, kInstructionsPerTick, &Tick, &ticks_left_);
  }
  ~MutantDatabase() { sqlite3_close(db_); }
  MutantDatabase(const MutantDatabase&) = delete;
  MutantDatabase& operator=(const MutantDatabase&) = delete;

  sqlite3* get() const { return db_; }  // nullptr when the file could not be opened

 private:
  // 2 * 10^8 instructions for all the statements of one mutation: rebuilding the largest table of
  // the recorded reports takes a few million.
  static constexpr int kInstructionsPerTick = 100000;
  static int Tick(void* ticks_left) { return --*static_cast<int*>(ticks_left) < 0; }

  sqlite3* db_ = nullptr;
  int ticks_left_ = 2000;
};

}  // namespace gpuscope::fuzz
