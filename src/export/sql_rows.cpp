#include "export/sql_rows.h"

#include <sqlite3.h>

namespace gpuscope::exporter {

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
  return std::unique_ptr<ReadOnlyConnection>(new ReadOnlyConnection(db));
}

ReadOnlyConnection::~ReadOnlyConnection() { sqlite3_close(db_); }

Status QueryRows(sqlite3* db, std::string_view sql, std::span<const SqlParam> params,
                 std::string_view what, const std::function<bool(const SqlRow&)>& row) {
  sqlite3_stmt* statement = nullptr;
  auto error = [&](std::string_view stage) {
    std::string message = "cannot " + std::string(stage) + " " + std::string(what) + ": " +
                          (db ? sqlite3_errmsg(db) : "no database");
    sqlite3_finalize(statement);
    return Status::Error(message);
  };
  if (db == nullptr) return Status::Error("cannot read " + std::string(what) + ": no database");
  if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &statement, nullptr) !=
      SQLITE_OK) {
    return error("query");
  }
  for (std::size_t i = 0; i < params.size(); ++i) {
    int index = static_cast<int>(i + 1);
    int bound = std::holds_alternative<std::int64_t>(params[i])
                    ? sqlite3_bind_int64(statement, index, std::get<std::int64_t>(params[i]))
                    : sqlite3_bind_text(statement, index, std::get<std::string>(params[i]).data(),
                                        static_cast<int>(std::get<std::string>(params[i]).size()),
                                        SQLITE_TRANSIENT);
    if (bound != SQLITE_OK) return error("bind parameters of");
  }
  int column_count = sqlite3_column_count(statement);
  std::vector<std::string> columns;
  for (int c = 0; c < column_count; ++c) columns.emplace_back(sqlite3_column_name(statement, c));
  std::vector<SqlValue> values(static_cast<std::size_t>(column_count));
  for (;;) {
    int stepped = sqlite3_step(statement);
    if (stepped == SQLITE_DONE) break;
    if (stepped != SQLITE_ROW) return error("read");
    for (int c = 0; c < column_count; ++c) {
      SqlValue& value = values[static_cast<std::size_t>(c)];
      value = SqlValue{};
      switch (sqlite3_column_type(statement, c)) {
        case SQLITE_INTEGER:
          value.kind = SqlValue::Kind::kInteger;
          value.integer = sqlite3_column_int64(statement, c);
          break;
        case SQLITE_FLOAT:
          value.kind = SqlValue::Kind::kReal;
          value.real = sqlite3_column_double(statement, c);
          break;
        case SQLITE_NULL:
          break;
        default: {  // text and blobs: both as their bytes
          const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement, c));
          value.kind = SqlValue::Kind::kText;
          value.text = std::string_view(
              bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(statement, c)));
        }
      }
    }
    if (!row(SqlRow{columns, values})) break;
  }
  sqlite3_finalize(statement);
  return {};
}

}  // namespace gpuscope::exporter
