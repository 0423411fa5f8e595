#include "store/profile_store.h"

#include <sqlite3.h>

#include "store/counter_data_codec.h"
#include "store/sqlite_util.h"
#include "util/comma_list.h"

namespace gpuscope::store {
namespace {

bool HasProfileTables(const ReportReader& report) { return report.schema_version() >= 2; }

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
}

bool HasTable(sqlite3* db, const char* table) {
  StatusOr<Statement> stmt =
      Statement::Prepare(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!stmt.ok()) return false;
  sqlite3_bind_text(stmt->get(), 1, table, -1, SQLITE_STATIC);
  return sqlite3_step(stmt->get()) == SQLITE_ROW;
}

}  // namespace

StatusOr<std::vector<StoredProfile>> ReadProfiledKernels(const ReportReader& report) {
  std::vector<StoredProfile> profiles;
  if (!HasProfileTables(report)) return profiles;
  // profiled_ranges came after schema version 3: older reports have no range results.
  const bool ranges = HasTable(report.db(), "profiled_ranges");
  const std::string sql =
      std::string(
          "SELECT p.id, p.profile_index, p.correlation_id, p.device_id, p.context_id, "
          "p.stream_id, p.invocation, s.value, COALESCE(s.demangled, s.value), p.start, "
          "p.\"end\", p.chip, p.passes, p.replay_mode, p.outcome, p.message, "
          "p.counter_data_size, ") +
      (ranges ? "COALESCE(r.kernels, 0) " : "0 ") +
      "FROM profiled_kernels p LEFT JOIN strings s ON s.id = p.name_id " +
      (ranges ? "LEFT JOIN profiled_ranges r ON r.profiled_kernel_id = p.id " : "") +
      "ORDER BY p.profile_index, p.id";
  StatusOr<Statement> stmt = Statement::Prepare(report.db(), sql.c_str());
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
    p.range_kernels = static_cast<std::uint32_t>(sqlite3_column_int64(s, 17));
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
      "SELECT key, value FROM meta WHERE key IN ('profile_sections', 'profile_metrics', "
      "'profile_replay')");
  if (!stmt.ok()) return ReadError(report, "cannot read the profile request of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    std::string key(ColumnText(stmt->get(), 0));
    std::string value(ColumnText(stmt->get(), 1));
    if (key == "profile_replay") {
      request.replay = value;
      continue;
    }
    request.present = true;
    if (key == "profile_sections") request.sections = SplitCommaList(value);
    if (key == "profile_metrics") request.metrics = SplitCommaList(value);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the profile request of");
  return request;
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

}  // namespace gpuscope::store
