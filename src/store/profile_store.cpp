#include "store/profile_store.h"

#include <sqlite3.h>

#include <sstream>

#include "store/counter_data_codec.h"
#include "store/sqlite_util.h"

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

std::vector<std::string> SplitCommas(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  std::string part;
  while (std::getline(stream, part, ',')) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

std::string JoinCommas(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += ',';
    out += part;
  }
  return out;
}

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
    if (key == "profile_sections") request.sections = SplitCommas(value);
    if (key == "profile_metrics") request.metrics = SplitCommas(value);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the profile request of");
  return request;
}

Status WriteKernelMetrics(const std::string& path,
                          const std::map<std::int64_t, std::vector<StoredMetric>>& metrics,
                          const ProfileRequest& request) {
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  struct Closer {
    sqlite3* db;
    ~Closer() { sqlite3_close(db); }
  } closer{db};
  const std::string context = "cannot store the metrics in " + path;
  if (rc != SQLITE_OK) return SqliteError(db, context);
  sqlite3_busy_timeout(db, 5000);
  if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
    return SqliteError(db, context);
  }
  auto fail = [&]() {
    Status error = SqliteError(db, context);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return error;
  };
  StatusOr<Statement> remove =
      Statement::Prepare(db, "DELETE FROM kernel_metrics WHERE profiled_kernel_id = ?1");
  StatusOr<Statement> insert =
      Statement::Prepare(db,
                         "INSERT INTO kernel_metrics(profiled_kernel_id, metric, value, unit) "
                         "VALUES (?1, ?2, ?3, ?4)");
  StatusOr<Statement> meta =
      Statement::Prepare(db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?1, ?2)");
  if (!remove.ok() || !insert.ok() || !meta.ok()) return fail();
  for (const auto& [id, values] : metrics) {
    sqlite3_bind_int64(remove->get(), 1, id);
    if (sqlite3_step(remove->get()) != SQLITE_DONE) return fail();
    sqlite3_reset(remove->get());
    for (const StoredMetric& metric : values) {
      sqlite3_stmt* s = insert->get();
      sqlite3_bind_int64(s, 1, id);
      BindText(s, 2, metric.name);
      if (metric.value) {
        sqlite3_bind_double(s, 3, *metric.value);
      } else {
        sqlite3_bind_null(s, 3);
      }
      BindText(s, 4, metric.unit);
      if (sqlite3_step(s) != SQLITE_DONE) return fail();
      sqlite3_reset(s);
    }
  }
  const std::string sections = JoinCommas(request.sections);
  const std::string requested = JoinCommas(request.metrics);
  const std::pair<const char*, const std::string*> rows[] = {{"profile_sections", &sections},
                                                             {"profile_metrics", &requested}};
  for (const auto& [key, value] : rows) {
    sqlite3_bind_text(meta->get(), 1, key, -1, SQLITE_STATIC);
    BindText(meta->get(), 2, *value);
    if (sqlite3_step(meta->get()) != SQLITE_DONE) return fail();
    sqlite3_reset(meta->get());
  }
  if (sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) return fail();
  // One self-contained file again (the launcher's finaliser did the same before).
  sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr);
  return Status();
}

}  // namespace gpuscope::store
