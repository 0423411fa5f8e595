#include "store/profile_store.h"

#include <sqlite3.h>

#include <functional>

#include "store/counter_data_codec.h"
#include "store/sqlite_util.h"
#include "util/comma_list.h"

namespace gpuscope::store {
namespace {

std::string ColumnText(sqlite3_stmt* stmt, int column) {
  const unsigned char* text = sqlite3_column_text(stmt, column);
  return text == nullptr
             ? std::string()
             : std::string(reinterpret_cast<const char*>(text),
                           static_cast<std::size_t>(sqlite3_column_bytes(stmt, column)));
}

bool HasProfileTables(const ReportReader& report) { return report.schema_version() >= 2; }

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
}

}  // namespace

StatusOr<std::vector<StoredProfile>> ReadProfiledKernels(const ReportReader& report) {
  std::vector<StoredProfile> profiles;
  if (!HasProfileTables(report)) return profiles;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT p.id, p.profile_index, p.correlation_id, p.device_id, p.context_id, p.stream_id, "
      "p.invocation, s.value, COALESCE(s.demangled, s.value), p.start, p.\"end\", p.chip, "
      "p.passes, p.replay_mode, p.outcome, p.message, p.counter_data_size "
      "FROM profiled_kernels p LEFT JOIN strings s ON s.id = p.name_id "
      "ORDER BY p.profile_index, p.id");
  if (!stmt.ok()) return ReadError(report, "cannot read profiled kernels of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredProfile p;
    p.id = sqlite3_column_int64(s, 0);
    p.profile_index = static_cast<std::uint32_t>(sqlite3_column_int64(s, 1));
    p.correlation_id = static_cast<std::uint32_t>(sqlite3_column_int64(s, 2));
    p.device_id = static_cast<std::uint32_t>(sqlite3_column_int64(s, 3));
    p.context_id = static_cast<std::uint32_t>(sqlite3_column_int64(s, 4));
    p.stream_id = static_cast<std::uint32_t>(sqlite3_column_int64(s, 5));
    p.invocation = static_cast<std::uint32_t>(sqlite3_column_int64(s, 6));
    p.mangled_name = ColumnText(s, 7);
    p.demangled_name = ColumnText(s, 8);
    if (sqlite3_column_type(s, 9) != SQLITE_NULL) {
      p.start = report.time_base() + static_cast<model::Timestamp>(sqlite3_column_int64(s, 9));
    }
    if (sqlite3_column_type(s, 10) != SQLITE_NULL) {
      p.end = report.time_base() + static_cast<model::Timestamp>(sqlite3_column_int64(s, 10));
    }
    p.chip = ColumnText(s, 11);
    p.passes = static_cast<std::uint32_t>(sqlite3_column_int64(s, 12));
    p.replay_mode = static_cast<model::ReplayMode>(sqlite3_column_int64(s, 13));
    p.outcome = static_cast<model::ProfileOutcome>(sqlite3_column_int64(s, 14));
    p.message = ColumnText(s, 15);
    p.counter_data_size = static_cast<std::size_t>(sqlite3_column_int64(s, 16));
    profiles.push_back(std::move(p));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read profiled kernels of");
  return profiles;
}

StatusOr<std::vector<std::uint8_t>> ReadCounterData(const ReportReader& report, std::int64_t id) {
  if (!HasProfileTables(report)) {
    return Status::Error("report " + report.path() + " has no profiled kernels");
  }
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), "SELECT counter_data, counter_data_size FROM profiled_kernels WHERE id = ?1");
  if (!stmt.ok()) return ReadError(report, "cannot read counter data of");
  sqlite3_bind_int64(stmt->get(), 1, id);
  int rc = sqlite3_step(stmt->get());
  if (rc != SQLITE_ROW) {
    if (rc == SQLITE_DONE) {
      return Status::Error("report " + report.path() + " has no profiled kernel " +
                           std::to_string(id));
    }
    return ReadError(report, "cannot read counter data of");
  }
  const auto* blob = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt->get(), 0));
  const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(stmt->get(), 0));
  const auto size = static_cast<std::size_t>(sqlite3_column_int64(stmt->get(), 1));
  if (blob == nullptr || size == 0) {
    return Status::Error("profiled kernel " + std::to_string(id) + " of " + report.path() +
                         " has no counter data");
  }
  StatusOr<std::vector<std::uint8_t>> image = DecompressCounterData({blob, bytes}, size);
  if (!image.ok()) {
    return Status::Error("report " + report.path() + ", profiled kernel " + std::to_string(id) +
                         ": " + image.status().message());
  }
  return image;
}

StatusOr<std::map<std::int64_t, std::vector<StoredMetric>>> ReadKernelMetrics(
    const ReportReader& report) {
  std::map<std::int64_t, std::vector<StoredMetric>> metrics;
  if (!HasProfileTables(report)) return metrics;
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(),
                         "SELECT profiled_kernel_id, metric, value, unit FROM kernel_metrics "
                         "ORDER BY profiled_kernel_id, metric");
  if (!stmt.ok()) return ReadError(report, "cannot read kernel metrics of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredMetric metric;
    metric.name = ColumnText(s, 1);
    if (sqlite3_column_type(s, 2) != SQLITE_NULL) metric.value = sqlite3_column_double(s, 2);
    metric.unit = ColumnText(s, 3);
    metrics[sqlite3_column_int64(s, 0)].push_back(std::move(metric));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read kernel metrics of");
  return metrics;
}

StatusOr<ProfileRequest> ReadProfileRequest(const ReportReader& report) {
  ProfileRequest request;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT key, value FROM meta WHERE key IN ('profile_sections', 'profile_metrics')");
  if (!stmt.ok()) return ReadError(report, "cannot read the profile request of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string key = ColumnText(stmt->get(), 0);
    std::string value = ColumnText(stmt->get(), 1);
    request.present = true;
    if (key == "profile_sections") request.sections = SplitCommaList(value);
    if (key == "profile_metrics") request.metrics = SplitCommaList(value);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the profile request of");
  return request;
}

namespace {

constexpr const char* kCreateFindings =
    "CREATE TABLE IF NOT EXISTS kernel_findings (profiled_kernel_id INTEGER NOT NULL, rank "
    "INTEGER NOT NULL, rule_id TEXT NOT NULL, severity TEXT NOT NULL, section TEXT NOT NULL, "
    "title TEXT NOT NULL, message TEXT NOT NULL, speedup_pct REAL, speedup_formula TEXT NOT "
    "NULL, PRIMARY KEY (profiled_kernel_id, rank)) WITHOUT ROWID";

// Opens `path` for writing, runs `body` in one IMMEDIATE transaction and commits (rolling
// back on failure), then folds the WAL back into the file: the report stays one
// self-contained file, as the launcher's finaliser left it.
Status InWriteTransaction(const std::string& path, const std::string& context,
                          const std::function<bool(sqlite3*)>& body) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  struct Closer {
    sqlite3* db;
    ~Closer() { sqlite3_close(db); }
  } closer{db};
  if (rc != SQLITE_OK) return SqliteError(db, context);
  sqlite3_busy_timeout(db, 5000);
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return SqliteError(db, context);
  }
  if (!body(db) || sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
    Status error = SqliteError(db, context);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return error;
  }
  sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  return Status();
}

bool HasTable(sqlite3* db, const char* table) {
  StatusOr<Statement> stmt =
      Statement::Prepare(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!stmt.ok()) return false;
  sqlite3_bind_text(stmt->get(), 1, table, -1, SQLITE_STATIC);
  return sqlite3_step(stmt->get()) == SQLITE_ROW;
}

}  // namespace

Status WriteKernelFindings(const std::string& path,
                           const std::map<std::int64_t, std::vector<StoredFinding>>& findings) {
  return InWriteTransaction(path, "cannot store the findings in " + path, [&](sqlite3* db) {
    if (sqlite3_exec(db, kCreateFindings, nullptr, nullptr, nullptr) != SQLITE_OK) return false;
    StatusOr<Statement> remove =
        Statement::Prepare(db, "DELETE FROM kernel_findings WHERE profiled_kernel_id = ?1");
    StatusOr<Statement> insert = Statement::Prepare(
        db,
        "INSERT INTO kernel_findings(profiled_kernel_id, rank, rule_id, severity, section, "
        "title, message, speedup_pct, speedup_formula) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
        "?8, ?9)");
    if (!remove.ok() || !insert.ok()) return false;
    for (const auto& [id, list] : findings) {
      sqlite3_bind_int64(remove->get(), 1, id);
      if (sqlite3_step(remove->get()) != SQLITE_DONE) return false;
      sqlite3_reset(remove->get());
      for (std::size_t rank = 0; rank < list.size(); ++rank) {
        const StoredFinding& f = list[rank];
        sqlite3_stmt* st = insert->get();
        sqlite3_bind_int64(st, 1, id);
        sqlite3_bind_int64(st, 2, static_cast<std::int64_t>(rank));
        BindText(st, 3, f.rule_id);
        BindText(st, 4, f.severity);
        BindText(st, 5, f.section);
        BindText(st, 6, f.title);
        BindText(st, 7, f.message);
        if (f.speedup_pct) {
          sqlite3_bind_double(st, 8, *f.speedup_pct);
        } else {
          sqlite3_bind_null(st, 8);
        }
        BindText(st, 9, f.speedup_formula);
        if (sqlite3_step(st) != SQLITE_DONE) return false;
        sqlite3_reset(st);
      }
    }
    return true;
  });
}

StatusOr<std::map<std::int64_t, std::vector<StoredFinding>>> ReadKernelFindings(
    const ReportReader& report) {
  std::map<std::int64_t, std::vector<StoredFinding>> findings;
  if (!HasProfileTables(report) || !HasTable(report.db(), "kernel_findings")) return findings;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT profiled_kernel_id, rule_id, severity, section, title, message, speedup_pct, "
      "speedup_formula FROM kernel_findings ORDER BY profiled_kernel_id, rank");
  if (!stmt.ok()) return ReadError(report, "cannot read the findings of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* st = stmt->get();
    StoredFinding f;
    f.rule_id = ColumnText(st, 1);
    f.severity = ColumnText(st, 2);
    f.section = ColumnText(st, 3);
    f.title = ColumnText(st, 4);
    f.message = ColumnText(st, 5);
    if (sqlite3_column_type(st, 6) != SQLITE_NULL) f.speedup_pct = sqlite3_column_double(st, 6);
    f.speedup_formula = ColumnText(st, 7);
    findings[sqlite3_column_int64(st, 0)].push_back(std::move(f));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the findings of");
  return findings;
}

Status WriteKernelMetrics(const std::string& path,
                          const std::map<std::int64_t, std::vector<StoredMetric>>& metrics,
                          const ProfileRequest& request) {
  return InWriteTransaction(path, "cannot store the metrics in " + path, [&](sqlite3* db) {
    StatusOr<Statement> remove =
        Statement::Prepare(db, "DELETE FROM kernel_metrics WHERE profiled_kernel_id = ?1");
    StatusOr<Statement> insert =
        Statement::Prepare(db,
                           "INSERT INTO kernel_metrics(profiled_kernel_id, metric, value, unit) "
                           "VALUES (?1, ?2, ?3, ?4)");
    StatusOr<Statement> meta =
        Statement::Prepare(db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
    if (!remove.ok() || !insert.ok() || !meta.ok()) return false;
    for (const auto& [id, values] : metrics) {
      sqlite3_bind_int64(remove->get(), 1, id);
      if (sqlite3_step(remove->get()) != SQLITE_DONE) return false;
      sqlite3_reset(remove->get());
      for (const StoredMetric& metric : values) {
        sqlite3_stmt* st = insert->get();
        sqlite3_bind_int64(st, 1, id);
        BindText(st, 2, metric.name);
        if (metric.value) {
          sqlite3_bind_double(st, 3, *metric.value);
        } else {
          sqlite3_bind_null(st, 3);
        }
        BindText(st, 4, metric.unit);
        if (sqlite3_step(st) != SQLITE_DONE) return false;
        sqlite3_reset(st);
      }
    }
    const std::string sections = JoinCommaList(request.sections);
    const std::string requested = JoinCommaList(request.metrics);
    const std::pair<const char*, const std::string*> rows[] = {{"profile_sections", &sections},
                                                               {"profile_metrics", &requested}};
    for (const auto& [key, value] : rows) {
      sqlite3_bind_text(meta->get(), 1, key, -1, SQLITE_STATIC);
      BindText(meta->get(), 2, *value);
      if (sqlite3_step(meta->get()) != SQLITE_DONE) return false;
      sqlite3_reset(meta->get());
    }
    return true;
  });
}

}  // namespace gpuscope::store
