// ReportReader's streaming of the event tables: rows in (start, insertion) order, decoded
// on worker threads as each table's declaration says (event_table_defs.h).
#include <sqlite3.h>

#include <string>

#include "store/chunked_row_reader.h"
#include "store/damaged_rows.h"
#include "store/event_row_decoder.h"
#include "store/event_tables.h"
#include "store/reorder_window.h"
#include "store/schema.h"
#include "store/report_reader.h"

namespace gpuscope::store {

namespace {

constexpr const char* kReadAction = "cannot read report";

// What the scan selects: the start column first, then the table's other declared columns
// in declaration order (the order DecodeRow reads them, see SelectedColumn). Fetching the
// start first measured cheaper in SQLite's VM than the table's own order.
// Columns added after version 1 are read as NULL from reports older than them (their
// decode takes NULL as "none").
std::string ColumnList(const EventTableInfo& table, int schema_version) {
  std::string list = '"' + std::string(table.start_column) + '"';
  for (const ColumnInfo& column : table.columns) {
    if (column.name == table.start_column) continue;
    if (column.name == "stack_id" && schema_version < kFirstSchemaWithStacks) {
      list += ", NULL";
      continue;
    }
    list += ", \"";
    list += column.name;
    list += '"';
  }
  return list;
}

// What is wrong with a row, if anything (damaged_rows.h): its times first, then a kernel's
// launch configuration.
template <typename Row>
std::optional<Damage> DamageOf(const Row& row, const RunExtent& run) {
  if constexpr (requires { row.record.grid_x; }) {
    if (auto damage = TimestampDamage(row.record.start, row.record.end, run)) return damage;
    return LaunchDamage(row.record);
  } else if constexpr (requires { row.record.end; }) {
    return TimestampDamage(row.record.start, row.record.end, run);
  } else if constexpr (requires { row.end; }) {
    return TimestampDamage(row.start, row.end, run);
  } else {
    return TimestampDamage(row.timestamp, 0, run);  // memory: one timestamp
  }
}

}  // namespace

// Streams the rows of one event table in (start, insertion) order:
//   1. rows without a timestamp first (as ORDER BY start puts NULLs first), in insertion
//      order, with a query of their own only when the writer counted some;
//   2. the timed rows in insertion order (decoded on worker threads, ChunkedRowReader)
//      through a ReorderWindow sized by the writer's row_order bookkeeping, so mostly
//      ordered tables need neither a sort nor an index.
// The rows are decoded as the table declares its columns (event_row_decoder.h).
template <typename Table, typename Fn>
Status ReportReader::Scan(Fn& fn) const {
  using Row = typename Table::Row;
  constexpr std::size_t table = kEventTableIndex<Table>;
  const EventTableInfo& info = kEventTables[table];
  const RowOrder& order = row_order_[table];
  const std::string name(info.name);
  const std::string start(info.start_column);
  const std::string select = "SELECT " + ColumnList(info, schema_version_) + ", id FROM " + name;
  const DecodeContext context{time_base_, &strings_, &demangled_};
  // Inlined into the chunk loop, as a hand-written decode was (callgrind: otherwise ~18 more
  // instructions per kernel row).
  auto decode = [&context](sqlite3_stmt * stmt, Row & row) __attribute__((always_inline)) {
    return DecodeRow<Table>(stmt, context, row);
  };
  const Status damaged =
      Status::Error(std::string(kReadAction) + " " + path_ + ": corrupt (a row of " + name +
                    " refers to a name that does not exist)");
  bool stopped = false;  // the callback asked to stop
  // Rows in the order of an SQL query, on this thread (the rare, slow paths).
  auto stream_query = [&](const std::string& sql, std::int64_t after_start,
                          std::int64_t after_id) -> Status {
    StatusOr<Statement> stmt = Statement::Prepare(db_, sql);
    if (!stmt.ok()) return ReadError();
    if (sqlite3_bind_parameter_count(stmt->get()) == 2) {
      sqlite3_bind_int64(stmt->get(), 1, after_start);
      sqlite3_bind_int64(stmt->get(), 2, after_id);
    }
    Row row{};
    int rc;
    while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
      if (!decode(stmt->get(), row)) return damaged;
      if (!fn(row)) {
        stopped = true;
        return Status();
      }
    }
    return rc == SQLITE_DONE ? Status() : ReadError();
  };

  if (!order.known) {
    // No bookkeeping (a report not written by this writer's flushes): SQLite sorts.
    return stream_query(select + " ORDER BY " + start + ", id", 0, 0);
  }
  if (order.untimed_rows > 0) {
    GPUSCOPE_RETURN_IF_ERROR(
        stream_query(select + " WHERE " + start + " IS NULL ORDER BY id", 0, 0));
    if (stopped) return Status();
  }

  std::int64_t first_id = 0, last_id = -1;
  {
    // Two subqueries: SQLite answers a lone min() or max() of the rowid from the b-tree's
    // edge, but "min(id), max(id)" together would scan the table.
    StatusOr<Statement> range = Statement::Prepare(
        db_, "SELECT (SELECT min(id) FROM " + name + "), (SELECT max(id) FROM " + name + ")");
    if (!range.ok() || sqlite3_step(range->get()) != SQLITE_ROW) return ReadError();
    if (sqlite3_column_type(range->get(), 0) != SQLITE_NULL) {
      first_id = sqlite3_column_int64(range->get(), 0);
      last_id = sqlite3_column_int64(range->get(), 1);
    }
  }
  std::string sql = select + " WHERE id BETWEEN ?1 AND ?2";
  if (order.untimed_rows > 0) sql += " AND " + start + " IS NOT NULL";
  sql += " ORDER BY id";

  ReorderWindow<Row> window(order.max_lateness);
  auto emit = [&](const Row& ready) {
    stopped = !fn(ready);
    return !stopped;
  };
  bool out_of_order = false;
  bool window_full = false;
  auto consume = [&](std::int64_t relative_start, std::int64_t id, Row& row) {
    if (!window.Fits(relative_start)) {
      out_of_order = true;
      return false;
    }
    if (!window.Push(relative_start, id, std::move(row), emit)) return false;
    window_full = window.held() > reorder_window_limit_;
    return !window_full;
  };
  Status read = ChunkedRowReader<Row>::Read(db_, path_, name, sql, first_id, last_id, decode,
                                            damaged, consume);
  if (!read.ok()) return read;
  if (out_of_order) {
    return Status::Error(std::string(kReadAction) + " " + path_ + ": corrupt (" + name +
                         " rows are further out of start order than its row_order entry says)");
  }
  if (stopped) return Status();
  if (window_full) {
    // Too far out of order to sort in memory (a row with a wild timestamp, say): every row
    // not emitted yet sorts after the last one emitted, so SQLite sorts the rest exactly.
    if (!window.emitted_any()) {
      return stream_query(select + " WHERE " + start + " IS NOT NULL ORDER BY " + start + ", id", 0,
                          0);
    }
    return stream_query(select + " WHERE " + start + " > ?1 OR (" + start + " = ?1 AND id > ?2)" +
                            " ORDER BY " + start + ", id",
                        window.last_start(), window.last_sequence());
  }
  window.Drain(emit);
  return Status();
}

template <typename Table, typename Fn>
Status ReportReader::CountingScan(const Fn& callback) const {
  using Row = typename Table::Row;
  constexpr std::size_t table = kEventTableIndex<Table>;
  const RunExtent run{process_.start, process_.end};
  DamagedRows damaged;
  bool stopped = false;
  auto fn = [&](const Row& row) {
    if (std::optional<Damage> damage = DamageOf(row, run)) {
      damaged.Add(table, *damage);
      return true;
    }
    stopped = !callback(row);
    return !stopped;
  };
  Status read = Scan<Table>(fn);
  // The count stands only for a scan of the whole table.
  if (read.ok() && !stopped) damaged_.SetTable(table, damaged);
  return read;
}

Status ReportReader::ForEachKernel(const std::function<bool(const KernelRow&)>& fn) const {
  return CountingScan<Kernels>(fn);
}
Status ReportReader::ForEachMemcpy(
    const std::function<bool(const model::MemcpyRecord&)>& fn) const {
  return CountingScan<Memcpys>(fn);
}
Status ReportReader::ForEachMemset(
    const std::function<bool(const model::MemsetRecord&)>& fn) const {
  return CountingScan<Memsets>(fn);
}
Status ReportReader::ForEachApiCall(const std::function<bool(const ApiCallRow&)>& fn) const {
  return CountingScan<ApiCalls>(fn);
}
Status ReportReader::ForEachMemory(
    const std::function<bool(const model::MemoryRecord&)>& fn) const {
  return CountingScan<Memory>(fn);
}
Status ReportReader::ForEachSync(const std::function<bool(const model::SyncRecord&)>& fn) const {
  return CountingScan<Syncs>(fn);
}
Status ReportReader::ForEachNvtx(const std::function<bool(const model::NvtxRecord&)>& fn) const {
  return CountingScan<Nvtx>(fn);
}
Status ReportReader::ForEachOverhead(
    const std::function<bool(const model::OverheadRecord&)>& fn) const {
  return CountingScan<Overheads>(fn);
}

}  // namespace gpuscope::store
