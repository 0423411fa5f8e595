// Read queries behind the store's typed query files (table_rows, timeline_rows,
// kernel_launch_groups, event_attributes, correlation_ids): run one SELECT, hand each
// result row to a callback, and open a second read-only connection to a report. Internal
// to src/store: code outside it calls those typed functions and never sees SQL.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "model/records.h"
#include "store/hostile_file_guard.h"
#include "store/launch_config.h"
#include "store/sqlite_util.h"
#include "store/table_row.h"
#include "util/status.h"

namespace gpuscope::store {

using QueryParam = std::variant<std::int64_t, std::string>;

// Runs `sql` with `params` bound to ?1, ?2, ... and calls `row` with the statement on each
// result row until it returns false. Errors are one line naming the query's purpose
// (`what`): "cannot query|bind parameters of|read <what>: <SQLite's message>".
Status StepRows(sqlite3* db, std::string_view sql, std::span<const QueryParam> params,
                std::string_view what, const std::function<bool(sqlite3_stmt*)>& row);

// The same with every row decoded into a TableRow. `columns` (may be empty) is called once
// before any row with the query's column names, also when no row follows.
Status StepTableRows(sqlite3* db, std::string_view sql, std::span<const QueryParam> params,
                     std::string_view what,
                     const std::function<void(std::span<const std::string>)>& columns,
                     const std::function<bool(const TableRow&)>& row);

// A stored (relative) time made absolute with `time_base`; nullopt when the column holds no
// integer (NULL: the event has no timestamp).
// A damaged report may store any offset (INT64_MAX) on any time base, and signed overflow is
// undefined: the sum is taken modulo 2^64, exactly as the event tables' decoder takes it
// (event_row_decoder.h, Stored::kTime), so that both readers place a row at the same time and
// judge it damaged alike (outside the run: store/damaged_rows.h).
inline std::optional<model::Timestamp> ColumnTime(sqlite3_stmt* statement, int column,
                                                  model::Timestamp time_base) {
  if (sqlite3_column_type(statement, column) != SQLITE_INTEGER) return std::nullopt;
  const auto offset = static_cast<std::uint64_t>(sqlite3_column_int64(statement, column));
  return time_base + offset;  // unsigned: modulo 2^64, never undefined
}

// The nine columns grid_x, grid_y, grid_z, block_x, block_y, block_z, registers_per_thread,
// static_shared_memory, dynamic_shared_memory of the kernels table, from `first` on.
inline LaunchConfig ColumnLaunchConfig(sqlite3_stmt* statement, int first) {
  LaunchConfig config;
  for (int d = 0; d < 3; ++d) {
    config.grid[d] = ColumnInt(statement, first + d);
    config.block[d] = ColumnInt(statement, first + 3 + d);
  }
  config.registers_per_thread = ColumnInt(statement, first + 6);
  config.static_shared_memory = ColumnInt(statement, first + 7);
  config.dynamic_shared_memory = ColumnInt(statement, first + 8);
  return config;
}

// A read-only connection of its own to a report file, so that two threads can read one
// report at once (a connection is used by one thread at a time).
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
  QueryLimit limit_;  // db_'s work limit (hostile_file_guard.h)
};

}  // namespace gpuscope::store
