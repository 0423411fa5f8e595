// Inserts the rows of one event table through a multi-row INSERT statement.
//
// Per row, SQLite's fixed cost of running a statement (starting the VM, opening a cursor,
// seeking to the end of the table, resetting) is as large as the cost of the row itself;
// one statement for kRowsPerBatch rows pays it once. Parameters stay bound across runs, so
// a value equal to the one already bound in its slot is not bound again: launch-bound
// traces repeat most columns (device, stream, launch configuration) from row to row.
//
// Values are integers or NULL (names are ids by now). Internal to the writer.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "store/event_tables.h"
#include "store/sqlite_util.h"
#include "util/status.h"

namespace gpuscope::store {

class BatchedInsert {
 public:
  static constexpr int kRowsPerBatch = 64;

  // Prepares "INSERT INTO table(columns...) VALUES (...) x kRowsPerBatch" and the
  // single-row form used for the last, partial batch of a transaction, for the table's
  // declared columns.
  Status Prepare(sqlite3* db, const EventTableInfo& table);

  // Starts the next row; fill every column with Set / SetNull before the next AddRow.
  void AddRow() {
    row_ = values_.data() + static_cast<std::size_t>(rows_) * columns_;
    null_row_ = nulls_.data() + static_cast<std::size_t>(rows_) * columns_;
    ++rows_;
  }
  void Set(int column, std::int64_t value) {
    row_[column] = value;
    null_row_[column] = 0;
  }
  void SetNull(int column) { null_row_[column] = 1; }

  bool full() const { return rows_ == kRowsPerBatch; }
  int pending() const { return rows_; }

  // Inserts the buffered rows. On error returns SQLite's result code (the rows are dropped
  // either way; the caller counts them).
  int Write();
  // Forgets buffered rows without writing them.
  void Discard() { rows_ = 0; }
  // Finalizes the statements (they must be gone before the connection changes its journal).
  void Close();

 private:
  int WriteFullBatch();
  int WriteRowByRow();

  Statement batch_;
  Statement single_;
  int columns_ = 0;
  int rows_ = 0;
  std::int64_t* row_ = nullptr;
  std::uint8_t* null_row_ = nullptr;
  std::vector<std::int64_t> values_;  // kRowsPerBatch x columns_, row-major
  std::vector<std::uint8_t> nulls_;
  // What each parameter of batch_ is bound to now (valid once bound_valid_).
  std::vector<std::int64_t> bound_values_;
  std::vector<std::uint8_t> bound_nulls_;
  bool bound_valid_ = false;
};

}  // namespace gpuscope::store
