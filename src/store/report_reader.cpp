// Opening a report: the checks that it is a complete gpuscope report of a readable
// version, and loading its small tables (meta, process, devices, strings, row_order).
// Streaming the event tables: report_reader_events.cpp.
#include "store/report_reader.h"

#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <charconv>
#include <cstring>

#include "store/declared_sql.h"
#include "store/event_tables.h"
#include "store/hostile_file_guard.h"
#include "store/record_decoder.h"
#include "store/report_file_check.h"
#include "store/report_tables.h"
#include "store/report_text.h"
#include "store/schema.h"
#include "store/schema_objects.h"
#include "store/sqlite_util.h"
#include "store/unsaved_evaluations.h"
#include "store/write_loss.h"

namespace gpuscope::store {

namespace {

constexpr const char* kOpenAction = "cannot open report";
constexpr const char* kReadAction = "cannot read report";

std::uint64_t U64(sqlite3_stmt* stmt, int column) {
  return static_cast<std::uint64_t>(sqlite3_column_int64(stmt, column));
}

bool IsNull(sqlite3_stmt* stmt, int column) {
  return sqlite3_column_type(stmt, column) == SQLITE_NULL;
}

}  // namespace

StatusOr<std::unique_ptr<ReportReader>> ReportReader::Open(const std::string& path) {
  GPUSCOPE_RETURN_IF_ERROR(CheckReportFile(path, kOpenAction));
  std::unique_ptr<ReportReader> reader(new ReportReader());
  reader->path_ = path;
  // Read-only, yet a report whose writer was killed (database + -wal file) still shows
  // every commit: SQLite reads the WAL of a read-only connection (since 3.22).
  int rc = sqlite3_open_v2(path.c_str(), &reader->db_, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                           nullptr);
  reader->limit_ = std::make_unique<QueryLimit>();
  Status loaded = rc == SQLITE_OK ? HardenReadConnection(reader->db_, path, *reader->limit_)
                                  : reader->ReadError();
  if (loaded.ok()) loaded = reader->Load();
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
  reader->unsaved_evaluation_ = UnsavedEvaluation(path);
  // Damage that SQLite reads past (a page whose cell count was cut drops its last rows
  // without an error) shows only in a structural check of every page. PRAGMA quick_check
  // costs about as much as reading the file once: 14.6 s (3 s CPU) for a 1.1 GB report of
  // 10 M kernels, where `stats` takes 15 s, so doubling the time of every command on large
  // reports is too much; below kFullCheckBytes it costs under ~0.2 s and is done on every
  // open. Larger reports are checked structurally as their rows are read (SQLite's own
  // checks) and in full by CheckIntegrity() on request.
  constexpr std::uint64_t kFullCheckBytes = 64ull << 20;
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 &&
      static_cast<std::uint64_t>(info.st_size) <= kFullCheckBytes) {
    Status intact = reader->CheckIntegrity();
    if (!intact.ok()) return intact;
  }
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
    return Status::Error(
        prefix + "written by " + (version.value() > kSchemaVersion ? "a newer" : "an older") +
        " gpuscope: schema version " + std::to_string(version.value()) + ", this gpuscope reads " +
        std::to_string(kOldestReadableSchemaVersion) + " to " + std::to_string(kSchemaVersion));
  }
  file_schema_version_ = static_cast<int>(version.value());
  GPUSCOPE_RETURN_IF_ERROR(CheckTablesAreTables());
  // A trigger would run when the evaluation stores its results, whichever command reads.
  GPUSCOPE_RETURN_IF_ERROR(CheckSchemaObjects(db_, std::string(kOpenAction) + " " + path_));
  GPUSCOPE_RETURN_IF_ERROR(LoadMeta());
  GPUSCOPE_RETURN_IF_ERROR(LoadProcess());
  GPUSCOPE_RETURN_IF_ERROR(LoadDevices());
  GPUSCOPE_RETURN_IF_ERROR(LoadContextsAndStreams());
  GPUSCOPE_RETURN_IF_ERROR(LoadCounters());
  GPUSCOPE_RETURN_IF_ERROR(LoadStrings());
  GPUSCOPE_RETURN_IF_ERROR(LoadRowOrder());
  GPUSCOPE_RETURN_IF_ERROR(LoadClockSamples());
  schema_version_ = file_schema_version_;
  return Status();
}

// Every table of the schema that the file has must be a table: a view in its place (one
// that recurses forever, say) would run whatever SQL the file brings each time we read it.
Status ReportReader::CheckTablesAreTables() {
  StatusOr<Statement> stmt =
      Statement::Prepare(db_, "SELECT type FROM sqlite_master WHERE name = ?1 COLLATE NOCASE");
  if (!stmt.ok()) return ReadError();
  for (const TableInfo& table : kReportTables) {
    const std::string_view name = table.name;
    BindText(stmt->get(), 1, name);
    int rc;
    while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
      std::string_view type = ColumnText(stmt->get(), 0);
      if (type == "view") {
        return Status::Error(std::string(kOpenAction) + " " + path_ + ": not a gpuscope report (" +
                             std::string(name) + " is a " + std::string(type) +
                             ", not a table)");
      }
    }
    sqlite3_reset(stmt->get());
    if (rc != SQLITE_DONE) return ReadError();
  }
  return Status();
}

Status ReportReader::LoadMeta() {
  std::string prefix = std::string(kOpenAction) + " " + path_ + ": ";
  StatusOr<Statement> stmt = Statement::Prepare(db_, "SELECT key, value FROM meta");
  if (!stmt.ok()) return ReadError("not a complete gpuscope report (no meta table)");
  std::string format, schema_version, time_base;
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view key = ColumnText(stmt->get(), 0);
    std::string_view value = ColumnText(stmt->get(), 1);
    if (key == "format") format = value;
    if (key == "schema_version") schema_version = value;
    if (key == "time_base_ns") time_base = value;
    if (key == "finalized") finalized_ = value == "1";
    if (key == "closed_by_writer") closed_by_writer_ = value == "1";
    if (key == "gpuscope_version") writer_version_ = value;
    if (key == kWriteErrorMeta) write_error_ = value;
    if (key == kCompleteUntilMeta) {
      // Damage leaves it 0 ("not recorded"): it only words a warning.
      std::from_chars(value.data(), value.data() + value.size(), complete_until_);
    }
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
  // Reports before version 3 have no identity columns: they read as NULL (rank unknown).
  static constexpr std::string_view kIdentity[] = {"boot_id", "rank", "local_rank",
                                                   "world_size", "rank_variable"};
  const bool has_identity = file_schema_version_ >= kFirstSchemaWithRanks;
  StatusOr<Statement> stmt = Statement::Prepare(
      db_, SelectSql(kProcessTable, has_identity ? std::span<const std::string_view>() : kIdentity));
  if (!stmt.ok()) return ReadError();
  int rc = sqlite3_step(stmt->get());
  if (rc == SQLITE_ROW) {
    ReadRecord(stmt->get(), process_, kProcessRecordColumns, *this);
  } else if (rc != SQLITE_DONE) {
    return ReadError();
  }
  return Status();
}

Status ReportReader::LoadDevices() {
  StatusOr<Statement> stmt = Statement::Prepare(db_, SelectSql(kDevicesTable) + " ORDER BY id");
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    ReadRecord(stmt->get(), devices_.emplace_back(), kDevicesRecordColumns, *this);
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
  StatusOr<Statement> contexts =
      Statement::Prepare(db_, SelectSql(kContextsTable) + " ORDER BY context_id");
  if (!contexts.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(contexts->get())) == SQLITE_ROW) {
    ReadRecord(contexts->get(), contexts_.emplace_back(), kContextsRecordColumns);
  }
  if (rc != SQLITE_DONE) return ReadError();
  StatusOr<Statement> streams =
      Statement::Prepare(db_, SelectSql(kStreamsTable) + " ORDER BY stream_id");
  if (!streams.ok()) return ReadError();
  while ((rc = sqlite3_step(streams->get())) == SQLITE_ROW) {
    ReadRecord(streams->get(), streams_.emplace_back(), kStreamsRecordColumns);
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

Status ReportReader::LoadCounters() {
  StatusOr<Statement> stmt = Statement::Prepare(db_, SelectSql(kCountersTable));
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view name = ColumnText(stmt->get(), 0);
    std::uint64_t value = U64(stmt->get(), 1);
    if (name == "dropped_records") counters_.dropped_records = value;
    if (name == "kernels_without_timestamp") counters_.kernels_without_timestamp = value;
    if (name == "copies_without_timestamp") counters_.copies_without_timestamp = value;
    if (name == "memsets_without_timestamp") counters_.memsets_without_timestamp = value;
    if (name == "unknown_records") counters_.unknown_records = value;
    if (name == "unfinished_nvtx_ranges") counters_.unfinished_nvtx_ranges = value;
    if (name == "unreadable_buffers") counters_.unreadable_buffers = value;
    if (name == "own_replay_records") counters_.own_replay_records = value;
    if (name == "tracing_paused_ns") counters_.tracing_paused_ns = value;
    if (name == "stacks_dropped") counters_.stacks_dropped = value;
    if (name == kRecordsNotWrittenCounter) records_not_written_ = value;
    if (name.starts_with(kRecordsNotWrittenPrefix) && value != 0) {
      records_not_written_by_table_.emplace_back(
          std::string(name.substr(kRecordsNotWrittenPrefix.size())), value);
    }
  }
  if (rc != SQLITE_DONE) return ReadError();
  SortByKind(records_not_written_by_table_);
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
    std::int64_t id = ColumnInt(stmt->get(), 0);
    // Ids are dense (the writer numbers them 1, 2, ...); a gap means damage, and a huge id
    // must not make us allocate gigabytes.
    if (id != static_cast<std::int64_t>(strings_.size())) {
      return Status::Error(std::string(kOpenAction) + " " + path_ +
                           ": corrupt (strings are not numbered 1, 2, ...)");
    }
    // Shortened here, once per name, however many rows repeat it (report_text.h).
    strings_.push_back(ReportText(ColumnText(stmt->get(), 1)));
    demangled_.push_back(ReportText(ColumnText(stmt->get(), 2)));
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

Status ReportReader::LoadRowOrder() {
  row_order_.assign(kNumEventTables, RowOrder{});
  StatusOr<Statement> stmt = Statement::Prepare(db_, SelectSql(kRowOrderTable));
  if (!stmt.ok()) return ReadError();
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string_view name = ColumnText(stmt->get(), 0);
    for (std::size_t i = 0; i < kNumEventTables; ++i) {
      if (kEventTables[i].name != name) continue;
      row_order_[i].known = true;
      row_order_[i].max_lateness = ColumnInt(stmt->get(), 1);
      row_order_[i].untimed_rows = U64(stmt->get(), 2);
    }
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}
Status ReportReader::LoadClockSamples() {
  if (file_schema_version_ < kFirstSchemaWithRanks) return Status();  // none recorded then
  // gpu_uncertainty_ns came with the GPU pairs: reports of schema 3 written before lack it.
  StatusOr<Statement> has_uncertainty = Statement::Prepare(
      db_, "SELECT count(*) FROM pragma_table_info('clock_samples') "
           "WHERE name = 'gpu_uncertainty_ns'");
  if (!has_uncertainty.ok() || sqlite3_step(has_uncertainty->get()) != SQLITE_ROW) {
    return ReadError();
  }
  const bool uncertainty = ColumnInt(has_uncertainty->get(), 0) != 0;
  static constexpr std::string_view kNoUncertainty[] = {"gpu_uncertainty_ns"};
  StatusOr<Statement> stmt = Statement::Prepare(
      db_, SelectSql(kClockSamplesTable,
                     uncertainty ? std::span<const std::string_view>() : kNoUncertainty) +
               " ORDER BY id");
  if (!stmt.ok()) return ReadError();
  constexpr int kCupti = ColumnIndex(kClockSamplesColumns, "cupti_ns");
  constexpr int kRealtime = ColumnIndex(kClockSamplesColumns, "realtime_ns");
  constexpr int kMonotonic = ColumnIndex(kClockSamplesColumns, "monotonic_ns");
  constexpr int kDevice = ColumnIndex(kClockSamplesColumns, "device_id");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    // A sample lacking one of the host clocks, or naming a device that cannot be one, cannot
    // be true: left out and counted, never used to align anything.
    const bool device_fits = IsNull(s, kDevice) ||
                             (ColumnInt(s, kDevice) >= 0 && ColumnInt(s, kDevice) <= 0xFFFFFFFFll);
    if (IsNull(s, kCupti) || IsNull(s, kRealtime) || IsNull(s, kMonotonic) || !device_fits) {
      ++damaged_clock_samples_;
      continue;
    }
    ReadRecord(s, clock_samples_.emplace_back(), kClockSamplesRecordColumns, *this);
  }
  if (rc != SQLITE_DONE) return ReadError();
  return Status();
}

std::string ReportReader::ReportText(std::string_view text) const {
  if (text.size() <= kMaxReportTextBytes) return std::string(text);
  {
    std::lock_guard<std::mutex> lock(shortened_mutex_);
    shortened_.insert(ReportTextHash(text));
  }
  return ShortenedReportText(text);
}

std::uint64_t ReportReader::shortened_texts() const {
  std::lock_guard<std::mutex> lock(shortened_mutex_);
  return shortened_.size();
}

std::optional<std::string_view> ReportReader::String(std::int64_t id) const {
  if (id <= 0 || id >= static_cast<std::int64_t>(strings_.size())) return std::nullopt;
  return strings_[static_cast<std::size_t>(id)];
}

std::optional<std::string_view> ReportReader::DemangledString(std::int64_t id) const {
  if (id <= 0 || id >= static_cast<std::int64_t>(strings_.size())) return std::nullopt;
  const std::string& demangled = demangled_[static_cast<std::size_t>(id)];
  return demangled.empty() ? strings_[static_cast<std::size_t>(id)] : demangled;
}

StatusOr<std::uint64_t> ReportReader::CountRows(const std::string& table) const {
  // Only names of the report's tables: the name goes into SQL text.
  bool known = false;
  for (const TableInfo& report_table : kReportTables) known = known || report_table.name == table;
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
  std::string_view result = ColumnText(stmt->get(), 0);
  if (result == "ok") return Status();
  // quick_check lists problems one per line, after a "*** in database main ***" heading;
  // the first problem is enough for one line.
  std::string_view first = result;
  while (first.starts_with("***") && first.find('\n') != std::string_view::npos) {
    first.remove_prefix(first.find('\n') + 1);
  }
  first = first.substr(0, first.find('\n'));
  return Status::Error(std::string(kReadAction) + " " + path_ + ": corrupt (" + std::string(first) +
                       ")");
}

}  // namespace gpuscope::store