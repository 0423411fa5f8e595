// Writes model records into a new SQLite report (schema.sql), the production RecordSink.
//
// Built for the injection library: it never throws, it keeps the per-record path free of
// allocations (prepared statements, interned names), and a failing disk does not take the
// traced program down. The first SQLite error is kept as status(); from then on records are
// only counted, by table (write_loss.h), and the counts are stored in the report if the file
// still accepts them.
//
// A filesystem that fills up: the writer holds back free space as large as its write-ahead
// log (space_reserve.h). At the first failed write it rolls the open transaction back, gives
// that space back, stores why and since when the report is incomplete, folds the log into the
// file (so what was committed stays a self-contained, readable report) and tells the failure
// observer once. A reserve that cannot grow with the log is such a failure too: the writer
// stops while the report can still be completed.
//
// Durability: everything goes into one open transaction that Flush() commits (WAL mode,
// synchronous=OFF: a commit survives kill -9 of the process, not a power cut). A transaction
// is also bounded by the free space: at a quarter of what the disk still holds (counted in
// rows of at most kRowBytesBound) the writer flushes by itself, so that a disk that fills
// within one flush interval (a launch-bound program writes ~1 M rows in 0.5 s) loses only the
// last small transaction, not everything since the start. A report
// whose process died keeps everything up to the last Flush; FinalizeReport() (run by the
// launcher) folds the WAL back into the file.
//
// Like every RecordSink, it is called from one thread at a time and does no locking.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/record_sink.h"
#include "model/records.h"
#include "store/event_tables.h"
#include "store/record_column.h"
#include "store/space_reserve.h"
#include "store/start_order_tracker.h"
#include "store/string_interner.h"
#include "store/write_loss.h"
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
  void OnTraceScope(const model::TraceScopeRecord& record) override;
  void OnApiCallCount(const model::ApiCallCountRecord& record) override;
  void OnGraphLaunch(const model::GraphLaunchRecord& record) override;
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
  // compressed counter data. A clock sample is one row of clock_samples.
  void OnProcess(const model::ProcessRecord& record) override;
  void OnDevice(const model::DeviceRecord& record) override;
  void OnContext(const model::ContextRecord& record) override;
  void OnStream(const model::StreamRecord& record) override;
  void OnProfiledKernel(const model::ProfiledKernelRecord& record) override;
  void OnClockSample(const model::ClockSampleRecord& record) override;
  void OnStack(const model::StackRecord& record) override;
  void OnModule(const model::ModuleRecord& record) override;
  // GPU metrics (report_writer_gpu_metrics.cpp): one row per metric, per sample, per device.
  void OnGpuMetric(const model::GpuMetricRecord& record) override;
  void OnGpuMetricSample(const model::GpuMetricSampleRecord& record) override;
  void OnGpuMetricSampling(const model::GpuMetricSamplingRecord& record) override;

  // Final flush, meta.finalized = '1' and meta.closed_by_writer = '1' (which nothing else
  // writes: it marks a process that ended normally); then the WAL is folded into the file (one
  // self-contained file) unless another connection has the report open, in which case
  // FinalizeReport does it later. Idempotent; returns status().
  Status Close();

  // The first error (ok while everything was written).
  const Status& status() const { return status_; }
  // Records received but not stored because of an error, in all and by table.
  std::uint64_t records_not_written() const { return records_not_written_; }
  LossByTable records_not_written_by_table() const { return NonZeroLosses(lost_by_kind_); }
  // Whether the report holds the latest loss counts (false when the disk had no room even
  // for them; true while nothing was lost).
  bool loss_stored() const { return loss_stored_ && stored_loss_count_ == records_not_written_; }
  // The loss in one line, for the end of the run: "1200 records could not be written
  // (kernels 600, api_calls 600); the count is stored in the report". Empty when none.
  std::string LossSummary() const;

  // Told once, on the writer's thread, when the first write fails: "report <path> is
  // incomplete from 1.502 s after tracing began: <why>; ...". Must not throw.
  using FailureObserver = std::function<void(const std::string& message)>;
  void set_failure_observer(FailureObserver observer) { on_failure_ = std::move(observer); }
  const std::string& path() const { return path_; }

  // The clock whose value Flush() stores in process.end; nanoseconds on CUPTI's clock
  // (CLOCK_REALTIME by default). Tests substitute a fixed one.
  using Clock = std::function<model::Timestamp()>;
  void set_clock(Clock clock) { clock_ = std::move(clock); }

 private:
  // A row's bytes in the log at most (a kernel row and its index entries, with page overhead):
  // only for bounding transactions by the free space.
  static constexpr std::uint64_t kRowBytesBound = 256;
  static constexpr std::uint64_t kMinTransactionRows = 256;
  static constexpr std::uint64_t kMaxTransactionRows = 1 << 20;

  explicit ReportWriter(std::string path);

  Status Open(bool overwrite, ReportPermissions permissions);
  Status PrepareStatements();

  // False once an error happened (the record of this kind is then counted as not written).
  bool Accepting(std::size_t kind);
  // Counts a record that an error kept out of the report.
  void Lost(std::size_t kind) {
    ++records_not_written_;
    ++lost_by_kind_[kind];
  }
  // Keeps the first error, rolls the open transaction back, counts its rows as lost and
  // completes what was committed (see the top of this file).
  void Fail(const char* what);  // from SQLite's error
  void FailWith(std::string reason);
  void OutOfMemory();
  // Stores the loss counts and why writing stopped, in a transaction of their own; sets
  // loss_stored_.
  void RecordLoss(bool closing);
  // After a commit: the reserve must cover the write-ahead log, else the writer stops.
  void KeepReserveAheadOfLog();
  // After a commit: how many rows the next transaction may hold (see Durability above).
  void BoundTheNextTransaction();
  // Runs a single-row statement; false (and the writer stops) on error.
  bool Step(sqlite3_stmt* stmt, const char* what);
  // Step for the statement that stores a whole record (process, device, ...).
  void StepRecord(sqlite3_stmt* stmt, const char* what, std::size_t kind);
  void WriteSourceCounters(std::int64_t id, const model::ProfiledKernelRecord& record);

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
  // What binding a record from its table's declaration takes from the writer
  // (record_binder.h): a name column's text interned, a kernel name with its demangled form,
  // and the stored form of a time.
  auto NameInterning() {
    return [this](Kept kept, std::string_view text) {
      return kept == Kept::kKernelName ? InternKernelName(text) : InternName(text);
    };
  }
  auto StoredTimes() {
    return [this](model::Timestamp time) { return StoredTime(time); };
  }

  // Counters, row_order and process.end: what each commit records besides the rows.
  bool WriteFlushState();
  Status Commit(bool begin_next);

  std::string path_;
  sqlite3* db_ = nullptr;
  Status status_;
  bool closed_ = false;
  bool out_of_memory_ = false;  // stopped by std::bad_alloc (status_ may be unset)
  bool in_transaction_ = false;
  // Records in the open transaction, by kind: lost if it fails.
  std::array<std::uint64_t, kNumLossKinds> records_in_transaction_{};
  std::uint64_t event_rows_in_transaction_ = 0;
  std::uint64_t transaction_row_budget_ = kMaxTransactionRows;
  std::uint64_t records_not_written_ = 0;
  std::array<std::uint64_t, kNumLossKinds> lost_by_kind_{};
  bool loss_stored_ = true;              // the last RecordLoss reached the file
  std::uint64_t stored_loss_count_ = 0;  // records_not_written_ as it stored it
  std::string failure_reason_;           // why writing stopped, without the path
  FailureObserver on_failure_;
  SpaceReserve reserve_;
  model::Timestamp tracing_start_ = 0;   // ProcessRecord::start
  model::Timestamp last_committed_ = 0;  // process.end of the last successful commit
  model::Timestamp flush_time_ = 0;      // process.end of the transaction being committed
  std::string wal_path_;

  Clock clock_;
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
inline bool ReportWriter::Accepting(std::size_t kind) {
  if (status_.ok() && !closed_ && !out_of_memory_) return true;
  Lost(kind);
  return false;
}

inline std::int64_t ReportWriter::Relative(model::Timestamp time) {
  if (!time_base_chosen_) ChooseTimeBase(time);
  // Modular arithmetic: the reader adds the base back and gets `time` for any value.
  return static_cast<std::int64_t>(time - time_base_);
}

}  // namespace gpuscope::store
