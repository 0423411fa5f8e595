// Small helpers around the SQLite C API shared by the writer, the reader and the
// finaliser: an owning statement handle and SQLite errors turned into Status messages.
// Internal to src/store (nothing outside the store includes sqlite3.h).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace gpuscope::store {

// Owns one prepared statement; finalizes it on destruction.
class Statement {
 public:
  Statement() = default;
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(Statement&& other) noexcept : stmt_(other.stmt_) { other.stmt_ = nullptr; }
  Statement& operator=(Statement&& other) noexcept {
    if (this != &other) {
      sqlite3_finalize(stmt_);
      stmt_ = other.stmt_;
      other.stmt_ = nullptr;
    }
    return *this;
  }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  sqlite3_stmt* get() const { return stmt_; }
  void Reset() {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
  }

  // Prepares `sql` on `db` for repeated use; errors carry SQLite's message.
  static StatusOr<Statement> Prepare(sqlite3* db, std::string_view sql);

 private:
  explicit Statement(sqlite3_stmt* stmt) : stmt_(stmt) {}
  sqlite3_stmt* stmt_ = nullptr;
};

// Binds `text` as TEXT. An empty view may have a null data() (a default-constructed
// string_view), which sqlite3_bind_text would store as NULL; this always stores ''.
// The caller keeps `text` alive until the statement has been stepped (SQLITE_STATIC).
inline int BindText(sqlite3_stmt* stmt, int index, std::string_view text) {
  return sqlite3_bind_text(stmt, index, text.data() ? text.data() : "",
                           static_cast<int>(text.size()), SQLITE_STATIC);
}

// "<context>: <SQLite's message>" as one line (SQLite messages have no newline).
Status SqliteError(sqlite3* db, std::string_view context);

// A failed read of a report as one line: "<action> <path>: corrupt or truncated (SQLite:
// ...)" when SQLite found the file damaged, else "<action> <path>: SQLite: ...".
Status ReportReadError(sqlite3* db, std::string_view action, const std::string& path);

// Runs statements that return no rows we need.
Status Exec(sqlite3* db, std::string_view sql, std::string_view context);

// Runs a query that returns one integer (e.g. a PRAGMA); `context` prefixes errors.
StatusOr<std::int64_t> QueryInt(sqlite3* db, std::string_view sql, std::string_view context);

// Makes the report one self-contained file: copies every committed page of the WAL into
// the main file, truncates the WAL and switches to journal_mode=DELETE, which removes the
// -wal and -shm files when the connection closes. Needs no other connection open; no
// statement of `db` may be active.
//
// Folding grows the main file by up to the log's size. When the filesystem has less room
// than that (a full disk), nothing is folded: a fold cut short by ENOSPC writes the header
// first and leaves a main file shorter than its header says, unreadable without its log.
// Instead the report stays a main file plus its log, which every reader reads whole, the
// error says so, and closing `db` will not try the fold either.
Status FoldWalIntoFile(sqlite3* db, const std::string& path);

// Whether the filesystem of `path` has room to fold its log (path + "-wal") into it: free
// space at least the log's size. True when there is no log or the space cannot be read.
bool HasRoomToFoldWal(const std::string& path);

// Column readers for the store's queries. NULL reads 0 (integers) or "" (text).
inline std::int64_t ColumnInt(sqlite3_stmt* statement, int column) {
  return sqlite3_column_int64(statement, column);
}
inline std::uint32_t ColumnU32(sqlite3_stmt* statement, int column) {
  return static_cast<std::uint32_t>(sqlite3_column_int64(statement, column));
}
// Text (or a blob) as its bytes, valid until the statement steps again.
inline std::string_view ColumnText(sqlite3_stmt* statement, int column) {
  const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement, column));
  return bytes ? std::string_view(bytes,
                                  static_cast<std::size_t>(sqlite3_column_bytes(statement, column)))
               : std::string_view();
}

// Whether the report has `table` (tables added after version 1 without a version of their own:
// the source tables, the GPU metric tables).
inline bool TableExists(sqlite3* db, const char* table) {
  StatusOr<Statement> stmt =
      Statement::Prepare(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!stmt.ok()) return false;
  sqlite3_bind_text(stmt->get(), 1, table, -1, SQLITE_STATIC);
  return sqlite3_step(stmt->get()) == SQLITE_ROW;
}

}  // namespace gpuscope::store
