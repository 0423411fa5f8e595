#include "store/query_rows.h"

#include <vector>

#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

using StatementPtr = std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)>;

Status QueryError(sqlite3* db, std::string_view stage, std::string_view what) {
  if (db == nullptr) {
    return Status::Error("cannot " + std::string(stage) + " " + std::string(what) +
                         ": no database");
  }
  return SqliteError(db, "cannot " + std::string(stage) + " " + std::string(what));
}

StatusOr<StatementPtr> PrepareRead(sqlite3* db, std::string_view sql,
                                   std::span<const QueryParam> params, std::string_view what) {
  if (db == nullptr) return Status::Error("cannot read " + std::string(what) + ": no database");
  sqlite3_stmt* raw = nullptr;
  int prepared = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
  StatementPtr statement(raw, sqlite3_finalize);
  if (prepared != SQLITE_OK) return QueryError(db, "query", what);
  for (std::size_t i = 0; i < params.size(); ++i) {
    int index = static_cast<int>(i + 1);
    int bound = std::holds_alternative<std::int64_t>(params[i])
                    ? sqlite3_bind_int64(raw, index, std::get<std::int64_t>(params[i]))
                    : sqlite3_bind_text(raw, index, std::get<std::string>(params[i]).data(),
                                        static_cast<int>(std::get<std::string>(params[i]).size()),
                                        SQLITE_TRANSIENT);
    if (bound != SQLITE_OK) return QueryError(db, "bind parameters of", what);
  }
  return statement;
}

Status StepPrepared(sqlite3* db, sqlite3_stmt* statement, std::string_view what,
                    const std::function<bool(sqlite3_stmt*)>& row) {
  for (;;) {
    int stepped = sqlite3_step(statement);
    if (stepped == SQLITE_DONE) return {};
    if (stepped != SQLITE_ROW) return QueryError(db, "read", what);
    if (!row(statement)) return {};
  }
}

}  // namespace

Status StepRows(sqlite3* db, std::string_view sql, std::span<const QueryParam> params,
                std::string_view what, const std::function<bool(sqlite3_stmt*)>& row) {
  StatusOr<StatementPtr> statement = PrepareRead(db, sql, params, what);
  if (!statement.ok()) return statement.status();
  return StepPrepared(db, statement.value().get(), what, row);
}

Status StepTableRows(sqlite3* db, std::string_view sql, std::span<const QueryParam> params,
                     std::string_view what,
                     const std::function<void(std::span<const std::string>)>& columns,
                     const std::function<bool(const TableRow&)>& row) {
  StatusOr<StatementPtr> statement = PrepareRead(db, sql, params, what);
  if (!statement.ok()) return statement.status();
  sqlite3_stmt* raw = statement.value().get();
  const int column_count = sqlite3_column_count(raw);
  std::vector<std::string> names;
  for (int c = 0; c < column_count; ++c) names.emplace_back(sqlite3_column_name(raw, c));
  if (columns) columns(names);
  std::vector<FieldValue> values(static_cast<std::size_t>(column_count));
  return StepPrepared(db, raw, what, [&](sqlite3_stmt* at) {
    for (int c = 0; c < column_count; ++c) {
      FieldValue& value = values[static_cast<std::size_t>(c)];
      value = FieldValue{};
      switch (sqlite3_column_type(at, c)) {
        case SQLITE_INTEGER:
          value.kind = FieldValue::Kind::kInteger;
          value.integer = sqlite3_column_int64(at, c);
          break;
        case SQLITE_FLOAT:
          value.kind = FieldValue::Kind::kReal;
          value.real = sqlite3_column_double(at, c);
          break;
        case SQLITE_NULL:
          break;
        default:  // text and blobs: both as their bytes
          value.kind = FieldValue::Kind::kText;
          value.text = ColumnText(at, c);
      }
    }
    return row(TableRow{names, values});
  });
}

StatusOr<std::unique_ptr<ReadOnlyConnection>> ReadOnlyConnection::Open(const std::string& path) {
  sqlite3* db = nullptr;
  int opened =
      sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nullptr);
  if (opened != SQLITE_OK) {
    std::string message =
        "cannot open " + path + ": " + (db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return Status::Error(message);
  }
  std::unique_ptr<ReadOnlyConnection> connection(new ReadOnlyConnection(db));
  GPUSCOPE_RETURN_IF_ERROR(HardenReadConnection(db, path, connection->limit_));
  return connection;
}

ReadOnlyConnection::~ReadOnlyConnection() { sqlite3_close(db_); }

}  // namespace gpuscope::store
