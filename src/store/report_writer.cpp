// The writer's lifecycle: creating the report, interning names, the time base, errors,
// commits, flushes and closing. Its rows: report_writer_events.cpp (event tables, batched)
// and report_writer_records.cpp (process, devices, contexts, streams, profiled kernels).
#include "store/report_writer.h"

#include <sqlite3.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <new>

#include "store/batched_insert.h"
#include "store/create_table_sql.h"
#include "store/report_file_create.h"
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
  GPUSCOPE_RETURN_IF_ERROR(
      Exec(db_,
           "PRAGMA synchronous = OFF; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -" +
               std::to_string(kCacheKib) + ";",
           context));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, "BEGIN", context));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, ReportSchemaSql(), context + ": schema"));
  GPUSCOPE_RETURN_IF_ERROR(Exec(db_, "COMMIT", context));
  GPUSCOPE_RETURN_IF_ERROR(PrepareStatements());

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
    const char* sql;
  };
  Statements& s = *statements;
  const Entry entries[] = {
      {&s.begin, "BEGIN"},
      {&s.commit, "COMMIT"},
      {&s.rollback, "ROLLBACK"},
      {&s.insert_string, "INSERT INTO strings(id, value, demangled) VALUES (?1, ?2, NULL)"},
      {&s.set_demangled, "UPDATE strings SET demangled = ?2 WHERE id = ?1"},
      {&s.set_meta, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)"},
      {&s.update_process,
       "UPDATE process SET pid = ?1, parent_pid = ?2, hostname = ?3, command_line = ?4, "
       "start = ?5 WHERE id = 1"},
      {&s.update_process_end, "UPDATE process SET \"end\" = ?1 WHERE id = 1"},
      {&s.insert_device,
       "INSERT OR REPLACE INTO devices(id, name, uuid, compute_major, compute_minor, num_sms, "
       "warp_size, max_threads_per_block, max_warps_per_sm, max_blocks_per_sm, "
       "max_registers_per_sm, max_registers_per_block, max_shared_memory_per_sm, "
       "max_shared_memory_per_block, max_shared_memory_per_block_optin, global_memory_bytes, "
       "global_memory_bandwidth_kbps, core_clock_khz, l2_cache_bytes, max_ipc, ecc_enabled, "
       "mig_enabled) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
       "?16, ?17, ?18, ?19, ?20, ?21, ?22)"},
      {&s.insert_context,
       "INSERT OR REPLACE INTO contexts(context_id, device_id, null_stream_id) "
       "VALUES (?1, ?2, ?3)"},
      {&s.insert_stream,
       "INSERT OR REPLACE INTO streams(stream_id, context_id, priority, flags) "
       "VALUES (?1, ?2, ?3, ?4)"},
      {&s.upsert_counter, "INSERT OR REPLACE INTO counters(name, value) VALUES (?1, ?2)"},
      {&s.insert_profiled_kernel,
       "INSERT INTO profiled_kernels(profile_index, correlation_id, device_id, context_id, "
       "stream_id, name_id, invocation, start, \"end\", chip, passes, replay_mode, outcome, "
       "message, counter_data, counter_data_size) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
       "?10, ?11, ?12, ?13, ?14, ?15, ?16)"},
      {&s.upsert_row_order,
       "INSERT OR REPLACE INTO row_order(table_name, max_lateness_ns, untimed_rows) "
       "VALUES (?1, ?2, ?3)"},
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
  FailWith(SqliteError(db_, "report " + path_ + ": " + what));
}

void ReportWriter::OutOfMemory() {
  // Building the message may fail too; the writer stops either way.
  try {
    FailWith(Status::Error("report " + path_ + ": out of memory"));
  } catch (const std::bad_alloc&) {
    out_of_memory_ = true;
  }
}

void ReportWriter::FailWith(Status error) {
  if (!status_.ok()) return;
  status_ = std::move(error);
  // Stop at the first error, keeping what earlier flushes committed: the open transaction
  // (records written and rows still in batches) is rolled back and counted as lost, and
  // the count is stored if the file still takes it.
  records_not_written_ += records_in_transaction_;
  records_in_transaction_ = 0;
  for (BatchedInsert& batch : stmts_->events) batch.Discard();
  if (in_transaction_ && !sqlite3_get_autocommit(db_)) {
    sqlite3_step(stmts_->rollback.get());
    sqlite3_reset(stmts_->rollback.get());
  }
  in_transaction_ = false;
  RecordLoss();
}

void ReportWriter::RecordLoss() {
  sqlite3_stmt* counter = stmts_->upsert_counter.get();
  sqlite3_bind_text(counter, 1, "records_not_written", -1, SQLITE_STATIC);
  sqlite3_bind_int64(counter, 2, AsStored(records_not_written_));
  sqlite3_step(counter);  // best effort, outside any transaction: autocommits
  sqlite3_reset(counter);
}

bool ReportWriter::Step(sqlite3_stmt* stmt, const char* what) {
  int rc = sqlite3_step(stmt);
  sqlite3_reset(stmt);
  if (rc == SQLITE_DONE || rc == SQLITE_ROW) return true;
  Fail(what);
  return false;
}

void ReportWriter::StepRecord(sqlite3_stmt* stmt, const char* what) {
  if (Step(stmt, what)) {
    ++records_in_transaction_;
  } else {
    Lost();
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
      {"records_not_written", records_not_written_},
  };
  sqlite3_stmt* counter = stmts_->upsert_counter.get();
  for (const Counter& c : counters) {
    sqlite3_bind_text(counter, 1, c.name, -1, SQLITE_STATIC);
    sqlite3_bind_int64(counter, 2, AsStored(c.value));
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
  BindNullableInt(end, 1, StoredTime(clock_ != nullptr ? clock_() : RealtimeNow()));
  return Step(end, "cannot write the process end");
}

Status ReportWriter::Commit(bool begin_next) {
  if (in_transaction_) {
    if (!Step(stmts_->commit.get(), "cannot commit")) return status_;
    in_transaction_ = false;
    records_in_transaction_ = 0;
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
  (void)Commit(/*begin_next=*/true);
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
  if (!status_.ok() && stmts_ != nullptr) RecordLoss();  // the final count of lost records
  stmts_.reset();
  sqlite3_close(db_);
  db_ = nullptr;
  return status_;
}

}  // namespace gpuscope::store