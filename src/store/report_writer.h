// Writes model records into a new SQLite report (schema.sql), the production RecordSink.
//
// Built for the injection library: it never throws, it keeps the per-record path free of
// allocations (prepared statements, interned names), and a failing disk does not take the
// traced program down. The first SQLite error is kept as status(); from then on records are
// only counted (records_not_written), and the count is stored in the report if the file
// still accepts it.
//
// Durability: everything goes into one open transaction that Flush() commits (WAL mode,
// synchronous=OFF: a commit survives kill -9 of the process, not a power cut). A report
// whose process died keeps everything up to the last Flush; FinalizeReport() (run by the
// launcher) folds the WAL back into the file.
//
// Like every RecordSink, it is called from one thread at a time and does no locking.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/record_sink.h"
#include "model/records.h"
#include "store/event_tables.h"
#include "store/start_order_tracker.h"
#include "store/string_interner.h"
#include "util/report_permissions.h"
#include "util/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace gpuscope::store {

class ReportWriter final : public model::RecordSink {
 public:
  // Creates the report at `path` (store/report_file_create.h: never through a symbolic
  // link; 0600 unless `permissions` says kUmask). An existing file is an error unless
  // `overwrite`, in which case its -wal/-shm/-journal companions are removed and the file
  // itself is emptied in place, never unlinked: a name claimed with an O_EXCL placeholder
  // stays claimed.
  static StatusOr<std::unique_ptr<ReportWriter>> Create(
      const std::string& path, bool overwrite,
      ReportPermissions permissions = kDefaultReportPermissions);

  // Closes the report (see Close); errors are kept in status().
  ~ReportWriter() override;
  ReportWriter(const ReportWriter&) = delete;
  ReportWriter& operator=(const ReportWriter&) = delete;

  // Event rows, batched (report_writer_events.cpp: the per-record hot path).
  void OnKernel(const model::KernelRecord& record) override;
  void OnMemcpy(const model::MemcpyRecord& record) override;
  void OnMemset(const model::MemsetRecord& record) override;
  void OnApiCall(const model::ApiCallRecord& record, bool nested_in_runtime) override;
  void OnMemory(const model::MemoryRecord& record) override;
  void OnSync(const model::SyncRecord& record) override;
  void OnNvtx(const model::NvtxRecord& record) override;
  void OnOverhead(const model::OverheadRecord& record) override;
  // Kept until the next Flush, which stores the latest totals.
  void OnCounters(const model::CollectionCounters& counters) override;

  // Commits everything received so far, with the counters, process.end (the time of this
  // flush) and the row_order bookkeeping, then opens the next transaction.
  void Flush() override;

  // Rows of their own, one statement each (report_writer_records.cpp). A profiled kernel
  // is stored outside the batched event tables: one row per measured launch, with its
  // compressed counter data.
  void OnProcess(const model::ProcessRecord& record) override;
  void OnDevice(const model::DeviceRecord& record) override;
  void OnContext(const model::ContextRecord& record) override;
  void OnStream(const model::StreamRecord& record) override;
  void OnProfiledKernel(const model::ProfiledKernelRecord& record) override;

  // Final flush, meta.finalized = '1' and meta.closed_by_writer = '1' (which nothing else
  // writes: it marks a process that ended normally); then the WAL is folded into the file (one
  // self-contained file) unless another connection has the report open, in which case
  // FinalizeReport does it later. Idempotent; returns status().
  Status Close();

  // The first error (ok while everything was written).
  const Status& status() const { return status_; }
  // Records received but not stored because of an error.
  std::uint64_t records_not_written() const { return records_not_written_; }
  const std::string& path() const { return path_; }

  // The clock whose value Flush() stores in process.end; nanoseconds on CUPTI's clock
  // (CLOCK_REALTIME by default). Tests substitute a fixed one.
  using Clock = model::Timestamp (*)();
  void set_clock(Clock clock) { clock_ = clock; }

 private:
  explicit ReportWriter(std::string path);

  Status Open(bool overwrite, ReportPermissions permissions);
  Status PrepareStatements();

  // False once an error happened (the record is then counted as not written).
  bool Accepting();
  // Counts a record that an error kept out of the report.
  void Lost() { ++records_not_written_; }
  // Keeps the first error, rolls the open transaction back and counts its rows as lost.
  void Fail(const char* what);  // from SQLite's error
  void FailWith(Status error);
  void OutOfMemory();
  void RecordLoss();
  // Runs a single-row statement; false (and the writer stops) on error.
  bool Step(sqlite3_stmt* stmt, const char* what);
  // Step for the statement that stores a whole record (process, device, ...).
  void StepRecord(sqlite3_stmt* stmt, const char* what);

  // Interns the record's names and adds its row to the table's batch, columns as the
  // table declares them (event_table_defs.h); `flag` fills a kWriterFlag column.
  template <typename Table>
  void InsertEvent(const typename Table::Record& record, bool flag = false);
  bool WritePendingRows();

  // Stored form of a time: relative to the time base, which is the first timestamp the
  // writer sees. 0 ("no timestamp") is stored as NULL (nullopt).
  std::int64_t Relative(model::Timestamp time);
  std::optional<std::int64_t> StoredTime(model::Timestamp time);
  void ChooseTimeBase(model::Timestamp time);
  void SetMeta(const char* key, std::string_view value);

  std::uint32_t InternName(std::string_view name);
  std::uint32_t InternKernelName(std::string_view mangled);

  // Counters, row_order and process.end: what each commit records besides the rows.
  bool WriteFlushState();
  Status Commit(bool begin_next);

  std::string path_;
  sqlite3* db_ = nullptr;
  Status status_;
  bool closed_ = false;
  bool out_of_memory_ = false;  // stopped by std::bad_alloc (status_ may be unset)
  bool in_transaction_ = false;
  std::uint64_t records_in_transaction_ = 0;  // lost if the open transaction fails
  std::uint64_t records_not_written_ = 0;

  Clock clock_ = nullptr;
  bool time_base_chosen_ = false;
  model::Timestamp time_base_ = 0;

  StringInterner names_;
  std::vector<bool> has_demangled_;  // by string id: the strings row carries `demangled`

  model::CollectionCounters counters_;
  std::array<StartOrderTracker, kNumEventTables> order_;

  // The prepared statements (defined in the .cpp, which alone includes sqlite3.h).
  struct Statements;
  std::unique_ptr<Statements> stmts_;
};

// Inline: run for every record, from the files the writer is split into.
inline bool ReportWriter::Accepting() {
  if (status_.ok() && !closed_ && !out_of_memory_) return true;
  ++records_not_written_;
  return false;
}

inline std::int64_t ReportWriter::Relative(model::Timestamp time) {
  if (!time_base_chosen_) ChooseTimeBase(time);
  // Modular arithmetic: the reader adds the base back and gets `time` for any value.
  return static_cast<std::int64_t>(time - time_base_);
}

}  // namespace gpuscope::store
