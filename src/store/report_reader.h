// Reads a gpuscope report back. Open() validates that the file is a complete report of a
// schema version we understand and fails with a one-line message otherwise (not SQLite,
// truncated, corrupt, a foreign database, another schema version). Rows stream through
// callbacks so that reports of tens of millions of events never sit in memory whole.
//
// Times come back absolute (the writer stores them relative to the report's time base).
//
// Store-stage notes: the file is opened read-only; a report whose writer was killed (a
// database plus its -wal file) shows everything up to the last flush. ForEach* decode rows
// on worker threads (SetReaderThreads chooses how many: reader_threads.h)
// but call the callback on the calling thread, in (start, insertion) order. A reader is
// used by one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "model/records.h"
#include "store/damaged_rows.h"
#include "store/event_rows.h"
#include "store/write_loss.h"
#include "util/status.h"

struct sqlite3;

namespace gpuscope::store {

struct QueryLimit;
struct EvaluationRows;

struct ProcessInfo {
  std::uint32_t pid = 0;
  std::uint32_t parent_pid = 0;
  std::string hostname;
  std::string command_line;
  model::Timestamp start = 0;
  model::Timestamp end = 0;  // last flush; 0 if the process never flushed
  // Where the process stands in a job of many (schema version 3; older reports: unknown).
  std::string boot_id;                                       // the host's boot id; empty: unknown
  std::optional<std::int64_t> rank, local_rank, world_size;  // nullopt: unknown
  std::string rank_variable;  // the environment variable that gave the rank; empty: none
};

// One row of clock_samples: the clocks read together at one moment (schema.sql).
struct ClockSample {
  model::Timestamp cupti_ns = 0;  // CUPTI's clock, absolute like every time the reader returns
  std::int64_t realtime_ns = 0;   // CLOCK_REALTIME
  std::int64_t monotonic_ns = 0;  // CLOCK_MONOTONIC_RAW
  std::optional<std::uint32_t> device_id;  // nullopt: the host clocks only
  std::optional<std::int64_t> gpu_ns;      // the device's own timestamp; nullopt for the host
  std::optional<std::int64_t> gpu_uncertainty_ns;  // a GPU pair's +- (nullopt: host, or older)
};

struct DeviceInfo {
  model::DeviceRecord record;  // string views point into name/uuid below
  std::string name;
  std::string uuid;
};

class ReportReader {
 public:
  static StatusOr<std::unique_ptr<ReportReader>> Open(const std::string& path);
  ~ReportReader();
  ReportReader(const ReportReader&) = delete;
  ReportReader& operator=(const ReportReader&) = delete;

  const std::string& path() const { return path_; }
  int schema_version() const { return schema_version_; }
  const ProcessInfo& process() const { return process_; }
  const std::vector<DeviceInfo>& devices() const { return devices_; }
  const model::CollectionCounters& counters() const { return counters_; }
  // The clock samples in the order they were taken (time order); empty for a report of
  // schema version 1 or 2. Rows missing a host clock are left out and counted below.
  const std::vector<ClockSample>& ClockSamples() const { return clock_samples_; }
  std::uint64_t damaged_clock_samples() const { return damaged_clock_samples_; }

  // Added by the store stage (the accessors above are the original contract).
  // meta.finalized: the writer closed the report or the launcher finalised it; false for a
  // report whose process is still running or died before finalisation.
  bool finalized() const { return finalized_; }
  // meta.closed_by_writer: true when the traced process closed its report itself (it ended
  // normally), false when it did not (it died, or is still running), nullopt for a report
  // written before gpuscope recorded this.
  std::optional<bool> closed_by_writer() const { return closed_by_writer_; }
  // The gpuscope version that wrote the report (meta.gpuscope_version).
  const std::string& writer_version() const { return writer_version_; }
  // Absolute time (ns) that stored times are relative to; ForEach* return absolute times.
  model::Timestamp time_base() const { return time_base_; }
  const std::vector<model::ContextRecord>& contexts() const { return contexts_; }
  const std::vector<model::StreamRecord>& streams() const { return streams_; }
  // Records the writer received but could not store (an I/O error while tracing).
  std::uint64_t records_not_written() const { return records_not_written_; }
  // Their number per table (counters "records_not_written.<table>", write_loss.h), why the
  // writer stopped (meta.write_error; empty when it never did) and up to when the data is
  // complete (meta.complete_until_ns, absolute; 0 when nothing had been committed).
  const LossByTable& records_not_written_by_table() const { return records_not_written_by_table_; }
  const std::string& write_error() const { return write_error_; }
  model::Timestamp complete_until() const { return complete_until_; }
  // Full structural check of every page (PRAGMA quick_check). Open() runs it on reports
  // up to 64 MiB (see Open for why not beyond); on larger ones it checks what it can
  // cheaply (header, size, schema, metadata), and damage inside the event tables shows up
  // as an error from the ForEach* that reads it, or here.
  Status CheckIntegrity() const;

  // Rows the reorder window may hold while ForEach* put a table in start order (see
  // reorder_window.h); a table further out of order has the rest sorted by SQLite instead
  // (slower, bounded memory). Rows of a launch-bound trace need a window of a few rows.
  void set_reorder_window_limit(std::size_t rows) { reorder_window_limit_ = rows; }

  // Each ForEach streams rows in start-time order where the table has one.
  // A false return from the callback stops the iteration early.
  Status ForEachKernel(const std::function<bool(const KernelRow&)>& fn) const;
  Status ForEachMemcpy(const std::function<bool(const model::MemcpyRecord&)>& fn) const;
  Status ForEachMemset(const std::function<bool(const model::MemsetRecord&)>& fn) const;
  Status ForEachApiCall(const std::function<bool(const ApiCallRow&)>& fn) const;
  Status ForEachMemory(const std::function<bool(const model::MemoryRecord&)>& fn) const;
  Status ForEachSync(const std::function<bool(const model::SyncRecord&)>& fn) const;
  Status ForEachNvtx(const std::function<bool(const model::NvtxRecord&)>& fn) const;
  Status ForEachOverhead(const std::function<bool(const model::OverheadRecord&)>& fn) const;

  // The rows the ForEach* above left out because their values cannot be true (an end
  // before the start, a time outside the run, a kernel dimension of 0: damaged_rows.h), per
  // table as counted by the last ForEach* that read the whole table (0 before). Commands
  // print these counts (analysis::SkippedRowWarnings) so that no row vanishes silently.
  const DamagedRows& damaged_rows() const { return damaged_; }

  // Free text of the report shortened past kMaxReportTextBytes (store/report_text.h): the
  // names of the strings table, the process's and devices' texts as Open() loads them, and
  // any other free text the store's query files read through ReportText. Each distinct text
  // is counted once; commands say how many (analysis::SkippedRowWarnings).
  std::uint64_t shortened_texts() const;
  // `text` as the report's readers return free text (ShortenedReportText), counted above
  // when shortened. For the store's query files (profile_store, stack_tables, ...).
  std::string ReportText(std::string_view text) const;
  // strings.id -> its text as loaded (kernel names: mangled), and for kernel names the
  // demangled text (the text itself when the report has none); nullopt for an id the report
  // does not have. The store's query files look names up here rather than joining the
  // strings table, so that every name is shortened once and read once.
  std::optional<std::string_view> String(std::int64_t id) const;
  std::optional<std::string_view> DemangledString(std::int64_t id) const;

  // Row counts, cheap (for tests and headers). `table` must be one of the report's tables
  // (report_tables.h); one a report of its version lacks is a read error.
  StatusOr<std::uint64_t> CountRows(const std::string& table) const;

  // The underlying connection, read-only, for the store's query files (profile_store,
  // table_rows, timeline_rows, ...); code outside src/store calls their typed functions.
  sqlite3* db() const { return db_; }
  // The evaluation this process made of the report but could not store in it (a read-only
  // file: unsaved_evaluations.h), which the profile and source readers take as stored; null
  // when none.
  const EvaluationRows* unsaved_evaluation() const { return unsaved_evaluation_.get(); }

 private:
  ReportReader() = default;
  Status Load();
  Status CheckTablesAreTables();
  Status LoadMeta();
  Status LoadProcess();
  Status LoadDevices();
  Status LoadContextsAndStreams();
  Status LoadCounters();
  Status LoadStrings();
  Status LoadRowOrder();
  Status LoadClockSamples();
  // "cannot read report <path>: ..." (or "...: corrupt (...)") from the connection's error.
  Status ReadError(std::string_view what = {}) const;
  // Streams an event table's rows to `fn` (report_reader_events.cpp).
  template <typename Table, typename Fn>
  Status Scan(Fn& fn) const;
  // Scan, leaving out and counting the damaged rows (damaged_rows()).
  template <typename Table, typename Fn>
  Status CountingScan(const Fn& fn) const;

  std::string path_;
  sqlite3* db_ = nullptr;
  std::unique_ptr<QueryLimit> limit_;  // db_'s work limit (hostile_file_guard.h)
  std::shared_ptr<const EvaluationRows> unsaved_evaluation_;
  int schema_version_ = 0;       // set once the whole file checked out (errors before say "open")
  int file_schema_version_ = 0;  // PRAGMA user_version, while loading
  model::Timestamp time_base_ = 0;
  ProcessInfo process_;
  std::vector<ClockSample> clock_samples_;
  std::uint64_t damaged_clock_samples_ = 0;
  std::vector<DeviceInfo> devices_;
  model::CollectionCounters counters_;
  std::vector<std::string> strings_;    // id -> text, loaded once
  std::vector<std::string> demangled_;  // id -> demangled text for kernel names
  // Hashes of the distinct texts ReportText shortened (few: only texts over 4 KiB).
  mutable std::mutex shortened_mutex_;
  mutable std::unordered_set<std::uint64_t> shortened_;
  bool finalized_ = false;
  std::optional<bool> closed_by_writer_;
  std::string writer_version_;
  std::vector<model::ContextRecord> contexts_;
  std::vector<model::StreamRecord> streams_;
  std::uint64_t records_not_written_ = 0;
  LossByTable records_not_written_by_table_;
  std::string write_error_;
  model::Timestamp complete_until_ = 0;
  struct RowOrder {
    bool known = false;  // the table has a row_order entry
    std::int64_t max_lateness = 0;
    std::uint64_t untimed_rows = 0;
  };
  std::vector<RowOrder> row_order_;  // by kEventTableIndex
  mutable DamagedRows damaged_;
  std::size_t reorder_window_limit_ = 1 << 20;
};

}  // namespace gpuscope::store
