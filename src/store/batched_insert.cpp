#include "store/batched_insert.h"

#include "store/declared_sql.h"

namespace gpuscope::store {

Status BatchedInsert::Prepare(sqlite3* db, const EventTableInfo& table) {
  const std::span<const ColumnInfo> columns = table.columns;
  columns_ = static_cast<int>(columns.size());
  const std::size_t slots = static_cast<std::size_t>(kRowsPerBatch) * columns.size();
  values_.assign(slots, 0);
  nulls_.assign(slots, 0);
  bound_values_.assign(slots, 0);
  bound_nulls_.assign(slots, 0);
  StatusOr<Statement> batch =
      Statement::Prepare(db, InsertSql(table.name, columns, {}, kRowsPerBatch));
  if (!batch.ok()) return batch.status();
  StatusOr<Statement> single = Statement::Prepare(db, InsertSql(table.name, columns));
  if (!single.ok()) return single.status();
  batch_ = std::move(batch.value());
  single_ = std::move(single.value());
  return Status();
}

int BatchedInsert::Write() {
  int rc = full() ? WriteFullBatch() : WriteRowByRow();
  rows_ = 0;
  return rc;
}

int BatchedInsert::WriteFullBatch() {
  sqlite3_stmt* stmt = batch_.get();
  const int slots = kRowsPerBatch * columns_;
  for (int i = 0; i < slots; ++i) {
    if (nulls_[i]) {
      if (!bound_valid_ || !bound_nulls_[i]) sqlite3_bind_null(stmt, i + 1);
    } else if (!bound_valid_ || bound_nulls_[i] || bound_values_[i] != values_[i]) {
      sqlite3_bind_int64(stmt, i + 1, values_[i]);
    }
  }
  bound_values_.swap(values_);
  bound_nulls_.swap(nulls_);
  bound_valid_ = true;
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc != SQLITE_DONE) bound_valid_ = false;  // be safe: rebind everything next time
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int BatchedInsert::WriteRowByRow() {
  sqlite3_stmt* stmt = single_.get();
  for (int r = 0; r < rows_; ++r) {
    const std::int64_t* values = values_.data() + static_cast<std::size_t>(r) * columns_;
    const std::uint8_t* nulls = nulls_.data() + static_cast<std::size_t>(r) * columns_;
    for (int c = 0; c < columns_; ++c) {
      if (nulls[c]) {
        sqlite3_bind_null(stmt, c + 1);
      } else {
        sqlite3_bind_int64(stmt, c + 1, values[c]);
      }
    }
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) return rc;
  }
  return SQLITE_OK;
}

void BatchedInsert::Close() {
  batch_.Reset();
  single_.Reset();
  rows_ = 0;
}

}  // namespace gpuscope::store
