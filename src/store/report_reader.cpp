#include "store/report_reader.h"

#include <sqlite3.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <cstring>

#include "store/chunked_row_reader.h"
#include "store/event_tables.h"
#include "store/reorder_window.h"
#include "store/report_file_check.h"
#include "store/schema.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {

namespace {

constexpr const char* kOpenAction = "cannot open report";
constexpr const char* kReadAction = "cannot read report";

std::string_view Text(sqlite3_stmt* stmt, int column) {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, column));
  if (text == nullptr) return {};
  return std::string_view(text, static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
}

std::int64_t Int(sqlite3_stmt* stmt, int column) { return sqlite3_column_int64(stmt, column); }

std::uint64_t U64(sqlite3_stmt* stmt, int column) {
  return static_cast<std::uint64_t>(sqlite3_column_int64(stmt, column));
}

std::uint32_t U32(sqlite3_stmt* stmt, int column) {
  return static_cast<std::uint32_t>(sqlite3_column_int64(stmt, column));
}

std::int32_t I32(sqlite3_stmt* stmt, int column) {
  return static_cast<std::int32_t>(sqlite3_column_int64(stmt, column));
}

bool IsNull(sqlite3_stmt* stmt, int column) {
  return sqlite3_column_type(stmt, column) == SQLITE_NULL;
}

// Column lists of the ForEach queries. The first column is the one rows are ordered by;
// the decoders below read the columns in this order.
constexpr const char* kKernelColumns =
    "start, \"end\", name_id, device_id, context_id, stream_id, correlation_id, grid_id, "
    "grid_x, grid_y, grid_z, block_x, block_y, block_z, cluster_x, cluster_y, cluster_z, "
    "registers_per_thread, static_shared_memory, dynamic_shared_memory, "
    "shared_memory_executed, local_memory_per_thread, local_memory_total, graph_id, "
    "graph_node_id, launch_type, cache_config, device_launched";
constexpr const char* kMemcpyColumns =
    "start, \"end\", device_id, context_id, stream_id, correlation_id, runtime_correlation_id, "
    "copy_kind, src_kind, dst_kind, is_async, bytes, src_device_id, dst_device_id, graph_id, "
    "graph_node_id";
constexpr const char* kMemsetColumns =
    "start, \"end\", device_id, context_id, stream_id, correlation_id, value, memory_kind, "
    "is_async, bytes, graph_id, graph_node_id";
constexpr const char* kApiCallColumns =
    "start, \"end\", domain, cbid, name_id, process_id, thread_id, correlation_id, "
    "return_value, nested";
constexpr const char* kMemoryColumns =
    "timestamp, op, memory_kind, address, bytes, device_id, context_id, stream_id, "
    "correlation_id, is_async, pc";
constexpr const char* kSyncColumns =
    "start, \"end\", kind, context_id, stream_id, event_id, correlation_id";
constexpr const char* kNvtxColumns =
    "start, \"end\", kind, range_id, name_id, domain_id, process_id, thread_id, category, color";
constexpr const char* kOverheadColumns =
    "start, \"end\", overhead_kind, name_id, process_id, thread_id";

}  // namespace

unsigned WorkerThreads() {
  if (const char* forced = std::getenv("GPUSCOPE_READER_THREADS"); forced != nullptr) {
    return static_cast<unsigned>(std::strtoul(forced, nullptr, 10));
  }
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  return std::min(cores - 1, kMaxWorkers);
}

StatusOr<std::unique_ptr<ReportReader>> ReportReader::Open(const std::string& path) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReportFile(path, kOpenAction));
  std::unique_ptr<ReportReader> reader(new ReportReader());
  reader->path_ = path;
  // Read-only, yet a report whose writer was killed (database + -wal file) still shows
  // every commit: SQLite reads the WAL of a read-only connection (since 3.22).
  int rc = sqlite3_open_v2(path.c_str(), &reader->db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  Status loaded = rc == SQLITE_OK ? reader->Load() : reader->ReadError();
  if (!loaded.ok() && reader->db_ != nullptr &&
      (sqlite3_extended_errcode(reader->db_) & 0xff) == SQLITE_CANTOPEN &&
      access((path + "-wal").c_str(), F_OK) == 0) {
    // The WAL of an unfinalized report needs its -shm index, which a read-only reader
    // can only create where it may write.
    return Status::Error(std::string(kOpenAction) + " " + path +
                         ": it was not finalized and its write-ahead log cannot be read from "
                         "here (finalize it where it can be written)");
  }
  if (!loaded.ok()) return loaded;
  return reader;
}

ReportReader::~ReportReader() { sqlite3_close(db_); }

Status ReportReader::ReadError(std::string_view what) const {
  const char* action = schema_version_ == 0 ? kOpenAction : kReadAction;
  int code = db_ != nullptr ? (sqlite3_extended_errcode(db_) & 0xff) : SQLITE_NOMEM;
  if (!what.empty() && code != SQLITE_CORRUPT && code != SQLITE_NOTADB) {
    return Status::Error(std::string(action) + " " + path_ + ": " + std::string(what));
  }
  return ReportReadError(db_, action, path_);
}

Status ReportReader::Load() {
  std::string prefix = std::string(kOpenAction) + " " + path_ + ": ";
  // The application id tells a foreign SQLite database from a damaged report.
  StatusOr<std::int64_t> application_id = QueryInt(db_, "PRAGMA application_id", "");
  if (!application_id.ok()) return ReadError();
  if (application_id.value() != kApplicationId) {
    return Status::Error(prefix + "not a gpuscope report (an SQLite database of another program)");
  }
  StatusOr<std::int64_t> version = QueryInt(db_, "PRAGMA user_version", "");
  if (!version.ok()) return ReadError();
  if (version.value() > kSchemaVersion || version.value() < kOldestReadableSchemaVersion) {
    return Status::Error(prefix + "written by " +
                         (version.value() > kSchemaVersion ? "a newer" : "an older") +
                         " gpuscope: schema version " + std::to_string(version.value()) +
                         ", this gpuscope reads " + std::to_string(kOldestReadableSchemaVersion) +
                         " to " + std::to_string(kSchemaVersion));
  }
  file_schema_version_ = static_cast<int>(version.value());
  GPUSCOPE_RETURN_IF_ERROR(LoadMeta());
  GPUSCOPE_RETURN_IF_ERROR(LoadProcess());
  GPUSCOPE_RETURN_IF_ERROR(LoadDevices());
  GPUSCOPE_RETURN_IF_ERROR(LoadContextsAndStreams());
  GPUSCOPE_RETURN_IF_ERROR(LoadCounters());
  GPUSCOPE_RETURN_IF_ERROR(LoadStrings());
  GPUSCOPE_RETURN_IF_ERROR(LoadRowOrder());
  schema_version_ = file_schema_version_;
  return Status();
}

Status ReportReader::LoadMeta() {
  std::string prefix = std::string(kOpenAction) + " " + path_ + ": ";
  StatusOr<Statement> stmt = Statement::Prepare(db_, "SELECT key, value FROM meta");
  if (!stmt.ok()) return ReadError("not a complete gpuscope report (no meta table)");
  std::string format, schema_version, time_base;
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view key = Text(stmt->get(), 0);
    std::string_view value = Text(stmt->get(), 1);
    if (key == "format") format = value;
    if (key == "schema_version") schema_version = value;
    if (key == "time_base_ns") time_base = value;
    if (key == "finalized") finalized_ = value == "1";
    if (key == "closed_by_writer") closed_by_writer_ = value == "1";
    if (key == "gpuscope_version") writer_version_ = value;
  }
  if (rc != SQLITE_DONE) return ReadError();
  if (format != kReportFormat) {
    return Status::Error(prefix + "not a gpuscope report (meta.format is '" + format + "')");
  }
  if (schema_version != std::to_string(file_schema_version_)) {
    return Status::Error(prefix + "corrupt (meta.schema_version '" + schema_version +
                         "' disagrees with the file's schema version " +
                         std::to_string(file_schema_version_) + ")");
  }
  auto [end, error] =
      std::from_chars(time_base.data(), time_base.data() + time_base.size(), time_base_);
  if (time_base.empty() || error != std::errc() || end != time_base.data() + time_base.size()) {
    return Status::Error(prefix + "corrupt (meta.time_base_ns is '" + time_base + "')");
  }
  return Status();
}

Status ReportReader::LoadProcess() {
  StatusOr<Statement> stmt = Statement::Prepare(
      db_, "SELECT pid, parent_pid, hostname, command_line, start, \"end\" FROM process");
  if (!stmt.ok()) return ReadError();
  int rc = sqlite3_step(stmt->get());
  if (rc == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    process_.pid = U32(s, 0);
    process_.parent_pid = U32(s, 1);
    process_.hostname = Text(s, 2);
    process_.command_line = Text(s, 3);
    process_.start = IsNull(s, 4) ? 0 : time_base_ + U64(s, 4);
    process_.end = IsNull(s, 5) ? 0 : time_base_ + U64(s, 5);
  } else if (rc != SQLITE_DONE) {
    return ReadError();
  }
  return Status();
}

Status ReportReader::LoadDevices() {
  StatusOr<Statement> stmt = Statement::Prepare(
      db_,
      "SELECT id, name, uuid, compute_major, compute_minor, num_sms, warp_size, "
      "max_threads_per_block, max_warps_per_sm, max_blocks_per_sm, max_registers_per_sm, "
      "max_registers_per_block, max_shared_memory_per_sm, max_shared_memory_per_block, "
      "max_shared_memory_per_block_optin, global_memory_bytes, global_memory_bandwidth_kbps, "
      "core_clock_khz, l2_cache_bytes, max_ipc, ecc_enabled, mig_enabled FROM devices "
      "ORDER BY id");
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    DeviceInfo& device = devices_.emplace_back();
    model::DeviceRecord& r = device.record;
    r.id = U32(s, 0);
    device.name = Text(s, 1);
    device.uuid = Text(s, 2);
    r.compute_major = U32(s, 3);
    r.compute_minor = U32(s, 4);
    r.num_sms = U32(s, 5);
    r.warp_size = U32(s, 6);
    r.max_threads_per_block = U32(s, 7);
    r.max_warps_per_sm = U32(s, 8);
    r.max_blocks_per_sm = U32(s, 9);
    r.max_registers_per_sm = U32(s, 10);
    r.max_registers_per_block = U32(s, 11);
    r.max_shared_memory_per_sm = U32(s, 12);
    r.max_shared_memory_per_block = U32(s, 13);
    r.max_shared_memory_per_block_optin = U32(s, 14);
    r.global_memory_bytes = U64(s, 15);
    r.global_memory_bandwidth_kbps = U64(s, 16);
    r.core_clock_khz = U32(s, 17);
    r.l2_cache_bytes = U32(s, 18);
    r.max_ipc = U32(s, 19);
    r.ecc_enabled = U32(s, 20);
    r.mig_enabled = Int(s, 21) != 0;
  }
  if (rc != SQLITE_DONE) return ReadError();
  // Only now that the vector stops growing can the views point into its strings.
  for (DeviceInfo& device : devices_) {
    device.record.name = device.name;
    device.record.uuid = device.uuid;
  }
  return Status();
}

Status ReportReader::LoadContextsAndStreams() {
  StatusOr<Statement> contexts = Statement::Prepare(
      db_, "SELECT context_id, device_id, null_stream_id FROM contexts ORDER BY context_id");
  if (!contexts.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(contexts->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = contexts->get();
    contexts_.push_back({U32(s, 0), U32(s, 1), U32(s, 2)});
  }
  if (rc != SQLITE_DONE) return ReadError();
  StatusOr<Statement> streams = Statement::Prepare(
      db_, "SELECT stream_id, context_id, priority, flags FROM streams ORDER BY stream_id");
  if (!streams.ok()) return ReadError();
  while ((rc = sqlite3_step(streams->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = streams->get();
    streams_.push_back({U32(s, 0), U32(s, 1), I32(s, 2), U32(s, 3)});
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

Status ReportReader::LoadCounters() {
  StatusOr<Statement> stmt = Statement::Prepare(db_, "SELECT name, value FROM counters");
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view name = Text(stmt->get(), 0);
    std::uint64_t value = U64(stmt->get(), 1);
    if (name == "dropped_records") counters_.dropped_records = value;
    if (name == "kernels_without_timestamp") counters_.kernels_without_timestamp = value;
    if (name == "copies_without_timestamp") counters_.copies_without_timestamp = value;
    if (name == "memsets_without_timestamp") counters_.memsets_without_timestamp = value;
    if (name == "unknown_records") counters_.unknown_records = value;
    if (name == "unfinished_nvtx_ranges") counters_.unfinished_nvtx_ranges = value;
    if (name == "unreadable_buffers") counters_.unreadable_buffers = value;
    if (name == "records_not_written") records_not_written_ = value;
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

Status ReportReader::LoadStrings() {
  StatusOr<Statement> stmt =
      Statement::Prepare(db_, "SELECT id, value, demangled FROM strings ORDER BY id");
  if (!stmt.ok()) return ReadError();
  // Index 0 stays empty: ids start at 1.
  strings_.assign(1, std::string());
  demangled_.assign(1, std::string());
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::int64_t id = Int(stmt->get(), 0);
    // Ids are dense (the writer numbers them 1, 2, ...); a gap means damage, and a huge id
    // must not make us allocate gigabytes.
    if (id != static_cast<std::int64_t>(strings_.size())) {
      return Status::Error(std::string(kOpenAction) + " " + path_ +
                           ": corrupt (strings are not numbered 1, 2, ...)");
    }
    strings_.emplace_back(Text(stmt->get(), 1));
    demangled_.emplace_back(Text(stmt->get(), 2));
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

Status ReportReader::LoadRowOrder() {
  row_order_.assign(kNumEventTables, RowOrder{});
  StatusOr<Statement> stmt =
      Statement::Prepare(db_, "SELECT table_name, max_lateness_ns, untimed_rows FROM row_order");
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view name = Text(stmt->get(), 0);
    for (std::size_t i = 0; i < kNumEventTables; ++i) {
      if (kEventTables[i].name != name) continue;
      row_order_[i].known = true;
      row_order_[i].max_lateness = Int(stmt->get(), 1);
      row_order_[i].untimed_rows = U64(stmt->get(), 2);
    }
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

// Streams the rows of one event table in (start, insertion) order:
//   1. rows without a timestamp first (as ORDER BY start puts NULLs first), in insertion
//      order, with a query of their own only when the writer counted some;
//   2. the timed rows in insertion order (decoded on worker threads, ChunkedRowReader)
//      through a ReorderWindow sized by the writer's row_order bookkeeping, so mostly
//      ordered tables need neither a sort nor an index.
// `decode(stmt, row)` fills a row from the columns (the first one is the start) and returns
// false when the row refers to a name that does not exist.
template <typename Row, typename Decode, typename Fn>
Status ReportReader::Scan(std::size_t table, const char* columns, Decode& decode, Fn& fn) const {
  const EventTableInfo& info = kEventTables[table];
  const RowOrder& order = row_order_[table];
  const std::string name(info.name);
  const std::string start(info.start_column);
  const std::string select = std::string("SELECT ") + columns + ", id FROM " + name;
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
    if (!IsNull(range->get(), 0)) {
      first_id = Int(range->get(), 0);
      last_id = Int(range->get(), 1);
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
  Status read =
      ChunkedRowReader<Row>::Read(db_, path_, sql, first_id, last_id, decode, damaged, consume);
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

Status ReportReader::ForEachKernel(const std::function<bool(const KernelRow&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, KernelRow& row) {
    model::KernelRecord& r = row.record;
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    std::int64_t name_id = Int(s, 2);
    if (name_id <= 0 || name_id >= static_cast<std::int64_t>(strings_.size())) return false;
    row.name_id = static_cast<std::uint32_t>(name_id);
    r.mangled_name = strings_[name_id];
    const std::string& demangled = demangled_[name_id];
    row.demangled_name = demangled.empty() ? r.mangled_name : std::string_view(demangled);
    r.device_id = U32(s, 3);
    r.context_id = U32(s, 4);
    r.stream_id = U32(s, 5);
    r.correlation_id = U32(s, 6);
    r.grid_id = Int(s, 7);
    r.grid_x = I32(s, 8);
    r.grid_y = I32(s, 9);
    r.grid_z = I32(s, 10);
    r.block_x = I32(s, 11);
    r.block_y = I32(s, 12);
    r.block_z = I32(s, 13);
    r.cluster_x = U32(s, 14);
    r.cluster_y = U32(s, 15);
    r.cluster_z = U32(s, 16);
    r.registers_per_thread = static_cast<std::uint16_t>(Int(s, 17));
    r.static_shared_memory = I32(s, 18);
    r.dynamic_shared_memory = I32(s, 19);
    r.shared_memory_executed = U32(s, 20);
    r.local_memory_per_thread = U32(s, 21);
    r.local_memory_total = U64(s, 22);
    r.graph_id = U32(s, 23);
    r.graph_node_id = U64(s, 24);
    r.launch_type = static_cast<std::uint8_t>(Int(s, 25));
    r.cache_config = static_cast<std::uint8_t>(Int(s, 26));
    r.device_launched = Int(s, 27) != 0;
    return true;
  };
  return Scan<KernelRow>(static_cast<std::size_t>(EventTable::kKernels), kKernelColumns, decode,
                         fn);
}

Status ReportReader::ForEachMemcpy(
    const std::function<bool(const model::MemcpyRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, model::MemcpyRecord& r) {
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.device_id = U32(s, 2);
    r.context_id = U32(s, 3);
    r.stream_id = U32(s, 4);
    r.correlation_id = U32(s, 5);
    r.runtime_correlation_id = U32(s, 6);
    r.copy_kind = static_cast<model::CopyKind>(Int(s, 7));
    r.src_kind = static_cast<model::MemoryKind>(Int(s, 8));
    r.dst_kind = static_cast<model::MemoryKind>(Int(s, 9));
    r.is_async = Int(s, 10) != 0;
    r.bytes = U64(s, 11);
    r.src_device_id = U32(s, 12);
    r.dst_device_id = U32(s, 13);
    r.graph_id = U32(s, 14);
    r.graph_node_id = U64(s, 15);
    return true;
  };
  return Scan<model::MemcpyRecord>(static_cast<std::size_t>(EventTable::kMemcpys), kMemcpyColumns,
                                   decode, fn);
}

Status ReportReader::ForEachMemset(
    const std::function<bool(const model::MemsetRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, model::MemsetRecord& r) {
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.device_id = U32(s, 2);
    r.context_id = U32(s, 3);
    r.stream_id = U32(s, 4);
    r.correlation_id = U32(s, 5);
    r.value = U32(s, 6);
    r.memory_kind = static_cast<model::MemoryKind>(Int(s, 7));
    r.is_async = Int(s, 8) != 0;
    r.bytes = U64(s, 9);
    r.graph_id = U32(s, 10);
    r.graph_node_id = U64(s, 11);
    return true;
  };
  return Scan<model::MemsetRecord>(static_cast<std::size_t>(EventTable::kMemsets), kMemsetColumns,
                                   decode, fn);
}

Status ReportReader::ForEachApiCall(const std::function<bool(const ApiCallRow&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, ApiCallRow& row) {
    model::ApiCallRecord& r = row.record;
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.domain = static_cast<model::ApiDomain>(Int(s, 2));
    r.cbid = U32(s, 3);
    std::int64_t name_id = Int(s, 4);
    if (name_id <= 0 || name_id >= static_cast<std::int64_t>(strings_.size())) return false;
    row.name_id = static_cast<std::uint32_t>(name_id);
    r.name = strings_[name_id];
    r.process_id = U32(s, 5);
    r.thread_id = U32(s, 6);
    r.correlation_id = U32(s, 7);
    r.return_value = I32(s, 8);
    row.nested_in_runtime = Int(s, 9) != 0;
    return true;
  };
  return Scan<ApiCallRow>(static_cast<std::size_t>(EventTable::kApiCalls), kApiCallColumns, decode,
                          fn);
}

Status ReportReader::ForEachMemory(
    const std::function<bool(const model::MemoryRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, model::MemoryRecord& r) {
    r.timestamp = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.op = static_cast<model::MemoryOp>(Int(s, 1));
    r.memory_kind = static_cast<model::MemoryKind>(Int(s, 2));
    r.address = U64(s, 3);
    r.bytes = U64(s, 4);
    r.device_id = U32(s, 5);
    r.context_id = U32(s, 6);
    r.stream_id = U32(s, 7);
    r.correlation_id = U32(s, 8);
    r.is_async = Int(s, 9) != 0;
    r.pc = U64(s, 10);
    return true;
  };
  return Scan<model::MemoryRecord>(static_cast<std::size_t>(EventTable::kMemory), kMemoryColumns,
                                   decode, fn);
}

Status ReportReader::ForEachSync(const std::function<bool(const model::SyncRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, model::SyncRecord& r) {
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.kind = static_cast<model::SyncKind>(Int(s, 2));
    r.context_id = U32(s, 3);
    r.stream_id = U32(s, 4);
    r.event_id = U32(s, 5);
    r.correlation_id = U32(s, 6);
    return true;
  };
  return Scan<model::SyncRecord>(static_cast<std::size_t>(EventTable::kSyncs), kSyncColumns, decode,
                                 fn);
}

Status ReportReader::ForEachNvtx(const std::function<bool(const model::NvtxRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  const auto known = [&](std::int64_t id) {
    return id > 0 && id < static_cast<std::int64_t>(strings_.size());
  };
  auto decode = [&](sqlite3_stmt* s, model::NvtxRecord& r) {
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.kind = static_cast<model::NvtxKind>(Int(s, 2));
    r.id = U32(s, 3);
    std::int64_t name_id = Int(s, 4);
    if (!known(name_id)) return false;
    r.name = strings_[name_id];
    if (IsNull(s, 5)) {
      r.domain = {};
    } else {
      std::int64_t domain_id = Int(s, 5);
      if (!known(domain_id)) return false;
      r.domain = strings_[domain_id];
    }
    r.process_id = U32(s, 6);
    r.thread_id = U32(s, 7);
    r.category = U32(s, 8);
    r.color = U32(s, 9);
    return true;
  };
  return Scan<model::NvtxRecord>(static_cast<std::size_t>(EventTable::kNvtx), kNvtxColumns, decode,
                                 fn);
}

Status ReportReader::ForEachOverhead(
    const std::function<bool(const model::OverheadRecord&)>& fn) const {
  const model::Timestamp base = time_base_;
  auto decode = [&](sqlite3_stmt* s, model::OverheadRecord& r) {
    r.start = IsNull(s, 0) ? 0 : base + U64(s, 0);
    r.end = IsNull(s, 1) ? 0 : base + U64(s, 1);
    r.overhead_kind = U32(s, 2);
    std::int64_t name_id = Int(s, 3);
    if (name_id <= 0 || name_id >= static_cast<std::int64_t>(strings_.size())) return false;
    r.name = strings_[name_id];
    r.process_id = U32(s, 4);
    r.thread_id = U32(s, 5);
    return true;
  };
  return Scan<model::OverheadRecord>(static_cast<std::size_t>(EventTable::kOverheads),
                                     kOverheadColumns, decode, fn);
}

StatusOr<std::uint64_t> ReportReader::CountRows(const std::string& table) const {
  // Only names of the schema's tables: the name goes into SQL text.
  static constexpr std::string_view kTables[] = {
      "kernels", "memcpys", "memsets",  "memory",  "syncs",    "api_calls", "nvtx",   "overheads",
      "strings", "devices", "contexts", "streams", "counters", "meta",      "process"};
  bool known = false;
  for (std::string_view name : kTables) known = known || name == table;
  if (!known) return Status::Error("no table named '" + table + "' in a gpuscope report");
  StatusOr<Statement> stmt = Statement::Prepare(db_, "SELECT count(*) FROM " + table);
  if (!stmt.ok()) return ReadError();
  if (sqlite3_step(stmt->get()) != SQLITE_ROW) return ReadError();
  return static_cast<std::uint64_t>(sqlite3_column_int64(stmt->get(), 0));
}

Status ReportReader::CheckIntegrity() const {
  StatusOr<Statement> stmt = Statement::Prepare(db_, "PRAGMA quick_check");
  if (!stmt.ok()) return ReadError();
  int rc = sqlite3_step(stmt->get());
  if (rc != SQLITE_ROW) return ReadError();
  std::string_view result = Text(stmt->get(), 0);
  if (result == "ok") return Status();
  // quick_check lists problems one per row; the first is enough for one line.
  std::string first(result.substr(0, result.find('\n')));
  return Status::Error(std::string(kReadAction) + " " + path_ + ": corrupt (" + first + ")");
}

}  // namespace gpuscope::store
