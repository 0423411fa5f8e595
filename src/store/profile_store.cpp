#include "store/profile_store.h"

#include <sqlite3.h>

#include <algorithm>

#include "store/counter_data_codec.h"
#include "store/declared_sql.h"
#include "store/evaluation_writer.h"
#include "store/profile_table_defs.h"
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
          "p.stream_id, p.invocation, p.name_id, p.start, "
          "p.\"end\", p.chip, p.passes, p.replay_mode, p.outcome, p.message, "
          "p.counter_data_size, ") +
      (ranges ? "COALESCE(r.kernels, 0) " : "0 ") +
      // Names come from the reader's strings (shortened once there), not joined in here.
      "FROM profiled_kernels p " +
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
    const std::int64_t name_id = sqlite3_column_int64(s, 7);
    p.mangled_name = report.String(name_id).value_or("");
    p.demangled_name = report.DemangledString(name_id).value_or("");
    if (sqlite3_column_type(s, 8) != SQLITE_NULL) {
      p.start = report.time_base() + static_cast<model::Timestamp>(sqlite3_column_int64(s, 8));
    }
    if (sqlite3_column_type(s, 9) != SQLITE_NULL) {
      p.end = report.time_base() + static_cast<model::Timestamp>(sqlite3_column_int64(s, 9));
    }
    p.chip = report.ReportText(ColumnText(s, 10));
    p.passes = static_cast<std::uint32_t>(sqlite3_column_int64(s, 11));
    p.replay_mode = static_cast<model::ReplayMode>(sqlite3_column_int64(s, 12));
    p.outcome = static_cast<model::ProfileOutcome>(sqlite3_column_int64(s, 13));
    p.message = report.ReportText(ColumnText(s, 14));
    p.counter_data_size = static_cast<std::size_t>(sqlite3_column_int64(s, 15));
    p.range_kernels = static_cast<std::uint32_t>(sqlite3_column_int64(s, 16));
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
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), SelectSql(kKernelMetricsTable) + " ORDER BY profiled_kernel_id, metric");
  if (!stmt.ok()) return ReadError(report, "cannot read kernel metrics of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredMetric metric;
    metric.name = report.ReportText(ColumnText(s, 1));
    const int storage = sqlite3_column_type(s, 2);
    if (storage == SQLITE_INTEGER || storage == SQLITE_FLOAT) {
      metric.value = sqlite3_column_double(s, 2);
    } else if (storage != SQLITE_NULL) {
      metric.not_a_number = true;
    }
    metric.unit = report.ReportText(ColumnText(s, 3));
    metrics[sqlite3_column_int64(s, 0)].push_back(std::move(metric));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read kernel metrics of");
  // An unsaved evaluation's values replace those of its kernels, in the query's order.
  if (const EvaluationRows* unsaved = report.unsaved_evaluation(); unsaved && unsaved->counters) {
    auto by_name = [](const StoredMetric& a, const StoredMetric& b) { return a.name < b.name; };
    for (const auto& [id, values] : unsaved->metrics) {
      std::vector<StoredMetric>& list = metrics[id] = values;
      std::stable_sort(list.begin(), list.end(), by_name);
    }
  }
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
  if (const EvaluationRows* unsaved = report.unsaved_evaluation(); unsaved && unsaved->counters) {
    // As the evaluation writer stores it: the replay only when it is known.
    request.present = true;
    request.sections = unsaved->request.sections;
    request.metrics = unsaved->request.metrics;
    if (!unsaved->request.replay.empty()) request.replay = unsaved->request.replay;
  }
  return request;
}

StatusOr<std::map<std::int64_t, std::vector<StoredFinding>>> ReadKernelFindings(
    const ReportReader& report) {
  std::map<std::int64_t, std::vector<StoredFinding>> findings;
  if (!HasProfileTables(report)) return findings;
  // An unsaved evaluation's findings replace those of its kernels, as storing them would.
  auto with_unsaved = [&report](std::map<std::int64_t, std::vector<StoredFinding>> stored) {
    if (const EvaluationRows* unsaved = report.unsaved_evaluation()) {
      for (const auto& [id, list] : unsaved->findings) stored[id] = list;
    }
    return stored;
  };
  if (!HasTable(report.db(), "kernel_findings")) return with_unsaved(std::move(findings));
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT profiled_kernel_id, rule_id, severity, section, title, message, speedup_pct, "
      "speedup_formula FROM kernel_findings ORDER BY profiled_kernel_id, rank");
  if (!stmt.ok()) return ReadError(report, "cannot read the findings of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* st = stmt->get();
    StoredFinding f;
    f.rule_id = report.ReportText(ColumnText(st, 1));
    f.severity = report.ReportText(ColumnText(st, 2));
    f.section = report.ReportText(ColumnText(st, 3));
    f.title = report.ReportText(ColumnText(st, 4));
    f.message = report.ReportText(ColumnText(st, 5));
    if (sqlite3_column_type(st, 6) != SQLITE_NULL) f.speedup_pct = sqlite3_column_double(st, 6);
    f.speedup_formula = report.ReportText(ColumnText(st, 7));
    findings[sqlite3_column_int64(st, 0)].push_back(std::move(f));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the findings of");
  return with_unsaved(std::move(findings));
}

}  // namespace gpuscope::store
