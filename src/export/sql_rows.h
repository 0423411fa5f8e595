// Ad-hoc read queries on a report's connection (store::ReportReader::db()), for the
// exporters and the viewer that need whole rows with their names resolved: the schema's
// *_v views already join them in, so a row is one SELECT. This file and its .cpp are the
// only places outside src/store that include sqlite3.h; they never write.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "util/status.h"

struct sqlite3;

namespace gpuscope::exporter {

struct SqlValue {
  enum class Kind { kNull, kInteger, kReal, kText } kind = Kind::kNull;
  std::int64_t integer = 0;
  double real = 0;
  std::string_view text;  // valid during the row callback only
};

using SqlParam = std::variant<std::int64_t, std::string>;

struct SqlRow {
  std::span<const std::string> columns;  // column names, as the query names them
  std::span<const SqlValue> values;
};

// A second read-only connection to a report, for reading two tables at once from two
// threads (a connection is used by one thread at a time).
class ReadOnlyConnection {
 public:
  static StatusOr<std::unique_ptr<ReadOnlyConnection>> Open(const std::string& path);
  ~ReadOnlyConnection();
  ReadOnlyConnection(const ReadOnlyConnection&) = delete;
  ReadOnlyConnection& operator=(const ReadOnlyConnection&) = delete;
  sqlite3* db() const { return db_; }

 private:
  explicit ReadOnlyConnection(sqlite3* db) : db_(db) {}
  sqlite3* db_ = nullptr;
};

// Runs `sql` with `params` bound to ?1, ?2, ... and calls `row` for each result row until
// it returns false. Errors are one line naming the query's purpose (`what`).
Status QueryRows(sqlite3* db, std::string_view sql, std::span<const SqlParam> params,
                 std::string_view what, const std::function<bool(const SqlRow&)>& row);

}  // namespace gpuscope::exporter
