// The writer's lifecycle: creating the report, interning names, the time base, errors,
// commits, flushes and closing. Its rows: report_writer_events.cpp (event tables, batched)
// and report_writer_records.cpp (process, devices, contexts, streams, profiled kernels).
#include "store/report_writer.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <new>

#include "store/batched_insert.h"
#include "store/create_table_sql.h"
#include "store/declared_sql.h"
#include "store/record_binder.h"
#include "store/report_file_create.h"
#include "store/report_tables.h"
#include "store/report_writer_statements.h"
#include "store/schema.h"
#include "store/sqlite_util.h"
#include "util/demangle.h"
#include "util/symbolic_link_refusal.h"

#ifndef GPUSCOPE_VERSION_STRING
#define GPUSCOPE_VERSION_STRING "unknown"
#endif

namespace gpuscope::store {

namespace {

model::Timestamp RealtimeNow() {
  timespec now{};
  clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<model::Timestamp>(now.tv_sec) * 1000000000ull +
         static_cast<model::Timestamp>(now.tv_nsec);
}

// Page cache of the writer's connection: big enough that a flush interval's worth of
// b-tree pages is rarely spilled mid-transaction, small next to the 200 MB RSS budget.
constexpr int kCacheKib = 16 * 1024;

// Stored as the signed integer of the same bits (SQLite integers are signed 64-bit).
std::int64_t AsStored(std::uint64_t value) { return static_cast<std::int64_t>(value); }

// Free space held back beyond the write-ahead log's size (space_reserve.h): room for the
// transaction that stores the losses and for SQLite's own bookkeeping while folding.
constexpr std::uint64_t kReserveSlackBytes = 256 * 1024;

std::string DirectoryOf(const std::string& path) {
  std::size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string DecimalText(std::uint64_t value) {
  char text[24];
  auto written = std::to_chars(text, text + sizeof(text), value);
  return std::string(text, static_cast<std::size_t>(written.ptr - text));
}

// "1.502 s" after tracing began, or "the start of tracing" when nothing was committed.
std::string SinceTracingBegan(model::Timestamp start, model::Timestamp committed) {
  if (committed == 0 || start == 0 || committed < start) return "the start of tracing";
  char text[48];
  std::snprintf(text, sizeof(text), "%.3f s after tracing began",
                static_cast<double>(committed - start) / 1e9);
  return text;
}

}  // namespace

ReportWriter::ReportWriter(std::string path) : path_(std::move(path)) {}

StatusOr<std::unique_ptr<ReportWriter>> ReportWriter::Create(const std::string& path,
                                                             bool overwrite,
                                                             ReportPermissions permissions) {
  try {
    std::unique_ptr<ReportWriter> writer(new ReportWriter(path));
    Status status = writer->Open(overwrite, permissions);
    if (!status.ok()) return status;
    return writer;
  } catch (const std::bad_alloc&) {
    return Status::Error("cannot create report " + path + ": out of memory");
  }
}

Status ReportWriter::Open(bool overwrite, ReportPermissions permissions) {
  GPUSCOPE_RETURN_IF_ERROR(PrepareReportFile(path_, overwrite, permissions));

  std::string context = "cannot create report " + path_;
  // NOMUTEX: one thread uses the connection (the RecordSink contract), so SQLite's own
  // per-call locking would be pure overhead on the per-record path. NOFOLLOW: a link put in
  // place of the file PrepareReportFile just made is refused, not written through.
  int rc = sqlite3_open_v2(
      path_.c_str(), &db_,
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW,
      nullptr);
  if (rc == SQLITE_CANTOPEN_SYMLINK) {
    sqlite3_close(db_);
    db_ = nullptr;
    return SymbolicLinkRefusal(path_, "report");
  }
  if (rc != SQLITE_OK) {
    int error = db_ != nullptr ? sqlite3_system_errno(db_) : 0;
    Status failed = error != 0 ? Status::Error(context + ": " + std::strerror(error))
                               : SqliteError(db_, context);
    sqlite3_close(db_);
    db_ = nullptr;
    return failed;
  }
  // The first write creates the file: report an unwritable directory by its errno.
  Status created = Exec(db_, "PRAGMA page_size = 4096; PRAGMA journal_mode = WAL;", context);
  if (!created.ok()) {
    int error = sqlite3_system_errno(db_);
    return error != 0 ? Status::Error(context + ": " + std::strerror(error)) : created;
  }
  // The reserve starts with the slack alone; KeepReserveAheadOfLog grows it with the log.
  wal_path_ = path_ + "-wal";
  if (reserve_.Open(DirectoryOf(path_))) {
    if (int error = reserve_.HoldAtLeast(kReserveSlackBytes); error != 0) {
      return Status::Error(context + ": no room to keep " +
                           std::to_string(kReserveSlackBytes >> 10) +
                           " KiB free for completing it (" + std::strerror(error) + ")");
    }
  }
  GPUSCOPE_RETURN_IF_ERROR(
      Exec(db_,
           "PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -" +
               std::to_string(kCacheKib) + ";",
           context));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, "BEGIN", context));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, ReportSchemaSql(), context + ": schema"));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, "COMMIT", context));
  GPUSCOPE_RETURN_IF_ERROR(PrepareStatements());

  BoundTheNextTransaction();
  GPUSCOPE_RETURN_IF_ERROR(Commit(/*begin_next=*/true));
  SetMeta("gpuscope_version", GPUSCOPE_VERSION_STRING);
  return status_;
}

Status ReportWriter::PrepareStatements() {
  // stmts_ is set only once every statement is prepared: the rest of the writer may then
  // rely on all of them, and Close() on a writer whose Open failed finds none.
  auto statements = std::make_unique<Statements>();
  struct Entry {
    Statement* statement;
    std::string sql;
  };
  Statements& s = *statements;
  const Entry entries[] = {
      {&s.begin, "BEGIN"},
      {&s.commit, "COMMIT"},
      {&s.rollback, "ROLLBACK"},
      {&s.insert_string, "INSERT INTO strings(id, value, demangled) VALUES (?1, ?2, NULL)"},
      {&s.set_demangled, "UPDATE strings SET demangled = ?2 WHERE id = ?1"},
      {&s.set_meta, InsertSql(kMetaTable, "OR REPLACE")},
      // The process row is schema.sql's; the writer fills it in.
      {&s.update_process, UpdateSql(kProcessTable.name, kProcessRecordColumns, "WHERE id = 1")},
      {&s.update_process_end, "UPDATE process SET \"end\" = ?1 WHERE id = 1"},
      {&s.insert_device, InsertSql(kDevicesTable, "OR REPLACE")},
      {&s.insert_context, InsertSql(kContextsTable, "OR REPLACE")},
      {&s.insert_stream, InsertSql(kStreamsTable, "OR REPLACE")},
      {&s.upsert_counter, InsertSql(kCountersTable, "OR REPLACE")},
      // An id no one binds stays NULL: SQLite numbers the row (INTEGER PRIMARY KEY).
      {&s.insert_profiled_kernel, InsertSql(kProfiledKernelsTable)},
      {&s.insert_clock_sample, InsertSql(kClockSamplesTable)},
      // A thread's calls of one function add up, whichever flush brings them.
      {&s.upsert_api_call_count,
       InsertSql(kApiCallCountsTable) +
           " ON CONFLICT(thread_id, domain, cbid) DO UPDATE SET "
           "calls = calls + excluded.calls, total_ns = total_ns + excluded.total_ns, "
           "min_ns = MIN(min_ns, excluded.min_ns), max_ns = MAX(max_ns, excluded.max_ns), "
           "first_start = MIN(first_start, excluded.first_start), "
           "last_end = MAX(last_end, excluded.last_end)"},
      {&s.insert_graph_launch, InsertSql(kGraphLaunchesTable)},
      {&s.insert_instruction_value, InsertSql(kInstructionValuesTable, "OR REPLACE")},
      {&s.insert_profiled_range, InsertSql(kProfiledRangesTable, "OR REPLACE")},
      {&s.insert_kernel_source, InsertSql(kKernelSourceTable, "OR REPLACE")},
      {&s.insert_cubin, InsertSql(kCubinsTable, "OR IGNORE")},
      // module_id stays NULL until the CLI symbolises the native frames.
      {&s.insert_stack_frame, InsertSql(kStackFramesTable, "OR IGNORE")},
      {&s.insert_module, InsertSql(kModulesTable)},
      {&s.insert_gpu_metric, InsertSql(kGpuMetricsTable, "OR REPLACE")},
      {&s.insert_gpu_metric_sample, InsertSql(kGpuMetricSamplesTable)},
      {&s.upsert_gpu_metric_sampling, InsertSql(kGpuMetricSamplingTable, "OR REPLACE")},
      {&s.upsert_row_order, InsertSql(kRowOrderTable, "OR REPLACE")},
  };
  std::string context = "cannot create report " + path_;
  for (const Entry& entry : entries) {
    StatusOr<Statement> prepared = Statement::Prepare(db_, entry.sql);
    if (!prepared.ok()) return Status::Error(context + ": " + prepared.status().message());
    *entry.statement = std::move(prepared.value());
  }
  for (std::size_t i = 0; i < kNumEventTables; ++i) {
    Status prepared = s.events[i].Prepare(db_, kEventTables[i]);
    if (!prepared.ok()) return Status::Error(context + ": " + prepared.message());
  }
  stmts_ = std::move(statements);
  return Status();
}

ReportWriter::~ReportWriter() { (void)Close(); }

void ReportWriter::Fail(const char* what) {
  std::string reason = std::string(what) + ": " + sqlite3_errmsg(db_);
  FailWith(std::move(reason));
}

void ReportWriter::OutOfMemory() {
  // Building the message may fail too; the writer stops either way.
  try {
    FailWith("out of memory");
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
  }
}

void ReportWriter::FailWith(std::string reason) {
  if (!status_.ok()) return;
  failure_reason_ = std::move(reason);
  status_ = Status::Error("report " + path_ + ": " + failure_reason_);
  // Stop at the first error, keeping what earlier flushes committed: the open transaction
  // (records written and rows still in batches) is rolled back and counted as lost.
  for (std::size_t kind = 0; kind < kNumLossKinds; ++kind) {
    records_not_written_ += records_in_transaction_[kind];
    lost_by_kind_[kind] += records_in_transaction_[kind];
    records_in_transaction_[kind] = 0;
  }
  if (stmts_ == nullptr) return;
  for (BatchedInsert& batch : stmts_->events) batch.Discard();
  if (in_transaction_ && !sqlite3_get_autocommit(db_)) {
    sqlite3_step(stmts_->rollback.get());
    sqlite3_reset(stmts_->rollback.get());
  }
  in_transaction_ = false;
  // The space held back is what lets the report be completed now: the losses stored, and
  // the log folded into the file, so that what was committed reads without the log even if
  // the process dies before Close.
  reserve_.Release();
  RecordLoss(/*closing=*/false);
  // Fold only with room for it (sqlite_util.h, FoldWalIntoFile): a fold cut short by the full
  // disk would leave the main file unreadable without its log.
  if (!HasRoomToFoldWal(path_)) {
    sqlite3_db_config(db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
  } else if (sqlite3_wal_checkpoint_v2(db_, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                                       nullptr) != SQLITE_OK) {
    loss_stored_ = false;  // the counts may sit in a log the main file cannot absorb
  }
  if (on_failure_) {
    try {
      on_failure_("report " + path_ + " is incomplete from " +
                  SinceTracingBegan(tracing_start_, last_committed_) + ": " + failure_reason_ +
                  "; the program runs on, later records are counted, not written");
    } catch (...) {
    }
  }
}

void ReportWriter::RecordLoss(bool closing) {
  // One transaction of its own, outside the one that failed; any step failing leaves the
  // previous state (nothing, or the counts of an earlier call) in place.
  auto run = [](sqlite3_stmt* stmt) {
    int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    return rc == SQLITE_DONE || rc == SQLITE_ROW;
  };
  auto counter = [&](std::string_view name, std::uint64_t value) {
    sqlite3_stmt* upsert = stmts_->upsert_counter.get();
    BindText(upsert, 1, name);
    sqlite3_bind_int64(upsert, 2, AsStored(value));
    return run(upsert);
  };
  auto meta = [&](std::string_view key, std::string_view value) {
    sqlite3_stmt* set = stmts_->set_meta.get();
    BindText(set, 1, key);
    BindText(set, 2, value);
    return run(set);
  };
  bool stored =
      run(stmts_->begin.get()) && counter(kRecordsNotWrittenCounter, records_not_written_);
  try {
    for (std::size_t kind = 0; stored && kind < kNumLossKinds; ++kind) {
      if (lost_by_kind_[kind] == 0) continue;
      stored = counter(std::string(kRecordsNotWrittenPrefix) + std::string(LossKindTable(kind)),
                       lost_by_kind_[kind]);
    }
    stored = stored && meta(kWriteErrorMeta, failure_reason_) &&
             meta(kCompleteUntilMeta, DecimalText(last_committed_));
  } catch (const std::bad_alloc&) {
    stored = false;
  }
  // Only this line tells a report whose process ended normally from one the launcher
  // finalised after a crash (schema.sql, meta).
  if (closing) stored = stored && meta("finalized", "1") && meta("closed_by_writer", "1");
  stored = stored && run(stmts_->commit.get());
  if (!stored && !sqlite3_get_autocommit(db_)) run(stmts_->rollback.get());
  loss_stored_ = stored;
  if (stored) stored_loss_count_ = records_not_written_;
}

void ReportWriter::KeepReserveAheadOfLog() {
  struct stat wal {};
  if (stat(wal_path_.c_str(), &wal) != 0) return;
  const int error =
      reserve_.HoldAtLeast(static_cast<std::uint64_t>(wal.st_size) + kReserveSlackBytes);
  if (error == ENOSPC || error == EDQUOT) {
    FailWith(std::string("the filesystem is full (") + std::strerror(error) + ")");
  }
}

std::string ReportWriter::LossSummary() const {
  if (records_not_written_ == 0) return "";
  std::string summary = std::to_string(records_not_written_) +
                        (records_not_written_ == 1 ? " record" : " records") +
                        " could not be written";
  std::string by_table = DescribeLossByTable(NonZeroLosses(lost_by_kind_));
  if (!by_table.empty()) summary += " (" + by_table + ")";
  summary += loss_stored_ ? "; the count is stored in the report"
                          : "; the report had no room left even for this count";
  return summary;
}

bool ReportWriter::Step(sqlite3_stmt* stmt, const char* what) {
  // After the first failure nothing but the loss account (RecordLoss) is written: a write
  // outside any transaction (a new name, a meta key) would commit on its own and take the
  // room that the account and the fold of the log need.
  if (!status_.ok()) {
    sqlite3_reset(stmt);
    return false;
  }
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
  Fail(what);
  return false;
}

void ReportWriter::StepRecord(sqlite3_stmt* stmt, const char* what, std::size_t kind) {
  if (Step(stmt, what)) {
    ++records_in_transaction_[kind];
  } else {
    Lost(kind);
  }
}

void ReportWriter::SetMeta(const char* key, std::string_view value) {
  sqlite3_stmt* meta = stmts_->set_meta.get();
  sqlite3_bind_text(meta, 1, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(meta, 2, value.data() ? value.data() : "", static_cast<int>(value.size()),
                    SQLITE_TRANSIENT);
  Step(meta, "cannot write meta");
}

void ReportWriter::ChooseTimeBase(model::Timestamp time) {
  time_base_chosen_ = true;
  time_base_ = time;
  char text[24];
  auto written = std::to_chars(text, text + sizeof(text), time);
  SetMeta("time_base_ns", std::string_view(text, static_cast<std::size_t>(written.ptr - text)));
}

std::optional<std::int64_t> ReportWriter::StoredTime(model::Timestamp time) {
  if (time == 0) return std::nullopt;  // "no timestamp"
  return Relative(time);
}

std::uint32_t ReportWriter::InternName(std::string_view name) {
  // A new name allocates (the interner's copy): the one place a record can meet
  // std::bad_alloc, which must not unwind into the traced program.
  try {
    StringInterner::Result interned = names_.Intern(name);
    if (interned.inserted) {
      has_demangled_.push_back(false);
      sqlite3_stmt* insert = stmts_->insert_string.get();
      sqlite3_bind_int64(insert, 1, interned.id);
      BindText(insert, 2, name);
      Step(insert, "cannot insert a name");
    }
    return interned.id;
  } catch (const std::bad_alloc&) {
    OutOfMemory();
    return 0;
  }
}

std::uint32_t ReportWriter::InternKernelName(std::string_view mangled) {
  std::uint32_t id = InternName(mangled);
  if (id == 0 || has_demangled_[id - 1]) return id;
  // Once per distinct kernel name: demangling is far too slow for every record.
  has_demangled_[id - 1] = true;
  try {
    std::string demangled = Demangle(mangled);
    sqlite3_stmt* update = stmts_->set_demangled.get();
    sqlite3_bind_int64(update, 1, id);
    sqlite3_bind_text(update, 2, demangled.data(), static_cast<int>(demangled.size()),
                      SQLITE_TRANSIENT);
    Step(update, "cannot store a demangled name");
  } catch (const std::bad_alloc&) {
    OutOfMemory();
  }
  return id;
}

bool ReportWriter::WriteFlushState() {
  struct Counter {
    const char* name;
    std::uint64_t value;
  };
  const Counter counters[] = {
      {"dropped_records", counters_.dropped_records},
      {"kernels_without_timestamp", counters_.kernels_without_timestamp},
      {"copies_without_timestamp", counters_.copies_without_timestamp},
      {"memsets_without_timestamp", counters_.memsets_without_timestamp},
      {"unknown_records", counters_.unknown_records},
      {"unfinished_nvtx_ranges", counters_.unfinished_nvtx_ranges},
      {"unreadable_buffers", counters_.unreadable_buffers},
      {"own_replay_records", counters_.own_replay_records},
      {"tracing_paused_ns", counters_.tracing_paused_ns},
      {"stacks_dropped", counters_.stacks_dropped},
      {"records_not_written", records_not_written_},
  };
  sqlite3_stmt* counter = stmts_->upsert_counter.get();
  for (const Counter& c : counters) {
    sqlite3_bind_text(counter, 1, c.name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(counter, 2, AsStored(c.value));
    if (!Step(counter, "cannot write counters")) return false;
  }
  // Records refused without a write error (a clock sample without CUPTI's time, a cubin that
  // could not be compressed), by table as RecordLoss stores them after an error.
  for (std::size_t kind = 0; kind < kNumLossKinds; ++kind) {
    if (lost_by_kind_[kind] == 0) continue;
    const std::string name =
        std::string(kRecordsNotWrittenPrefix) + std::string(LossKindTable(kind));
    BindText(counter, 1, name);
    sqlite3_bind_int64(counter, 2, AsStored(lost_by_kind_[kind]));
    if (!Step(counter, "cannot write counters")) return false;
  }
  sqlite3_stmt* order = stmts_->upsert_row_order.get();
  for (std::size_t i = 0; i < kNumEventTables; ++i) {
    const EventTableInfo& table = kEventTables[i];
    BindText(order, 1, table.name);
    sqlite3_bind_int64(order, 2, order_[i].max_lateness());
    sqlite3_bind_int64(order, 3, AsStored(order_[i].untimed_rows()));
    if (!Step(order, "cannot write row order")) return false;
  }
  sqlite3_stmt* end = stmts_->update_process_end.get();
  flush_time_ = clock_ != nullptr ? clock_() : RealtimeNow();
  BindNullableInt(end, 1, StoredTime(flush_time_));
  return Step(end, "cannot write the process end");
}

Status ReportWriter::Commit(bool begin_next) {
  if (in_transaction_) {
    if (!Step(stmts_->commit.get(), "cannot commit")) return status_;
    in_transaction_ = false;
    records_in_transaction_.fill(0);
    event_rows_in_transaction_ = 0;
  }
  if (begin_next) {
    if (!Step(stmts_->begin.get(), "cannot begin a transaction")) return status_;
    in_transaction_ = true;
  }
  return Status();
}

void ReportWriter::Flush() {
  if (closed_ || !status_.ok()) return;
  if (!WritePendingRows() || !WriteFlushState()) return;
  if (!Commit(/*begin_next=*/false).ok()) return;
  last_committed_ = flush_time_;
  KeepReserveAheadOfLog();
  BoundTheNextTransaction();
  if (status_.ok()) (void)Commit(/*begin_next=*/true);
}

void ReportWriter::BoundTheNextTransaction() {
  const std::uint64_t free_bytes = reserve_.FreeBytes();
  transaction_row_budget_ = std::clamp(free_bytes / (4 * kRowBytesBound), kMinTransactionRows,
                                       kMaxTransactionRows);
}

Status ReportWriter::Close() {
  if (closed_) return status_;
  closed_ = true;
  if (db_ == nullptr) return status_;
  if (stmts_ == nullptr) {
    // Open failed before the statements existed (a full disk while creating the schema,
    // say): there is nothing to flush, only the connection to close.
    sqlite3_close(db_);
    db_ = nullptr;
    return status_;
  }
  if (status_.ok() && WritePendingRows() && WriteFlushState()) {
    SetMeta("finalized", "1");
    // Only this line tells a report whose process ended normally from one the launcher
    // finalised after a crash (schema.sql, meta).
    SetMeta("closed_by_writer", "1");
    if (status_.ok() && Commit(/*begin_next=*/false).ok()) {
      stmts_.reset();  // statements must be finalized before the journal mode can change
      // Everything is committed: if another connection keeps the WAL from being folded in
      // now, FinalizeReport (run by the launcher) does it later. Not an error.
      (void)FoldWalIntoFile(db_, path_);
    }
  }
  if (!status_.ok() && stmts_ != nullptr) {
    // The final count of lost records, and the report marked closed: it ends here.
    RecordLoss(/*closing=*/true);
    stmts_.reset();
    // Without room to fold, the count stays in the log, which readers read with the file.
    const bool room = HasRoomToFoldWal(path_);
    if (!FoldWalIntoFile(db_, path_).ok() && room) loss_stored_ = false;
  }
  stmts_.reset();
  sqlite3_close(db_);
  db_ = nullptr;
  return status_;
}

}  // namespace gpuscope::store