#include "store/profile_store.h"

#include <sqlite3.h>

#include <algorithm>

#include "store/counter_data_codec.h"
#include "store/declared_sql.h"
#include "store/evaluation_writer.h"
#include "store/profile_table_defs.h"
#include "store/record_decoder.h"
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
  static constexpr std::string_view kReadAlone[] = {"counter_data"};  // ReadCounterData
  const std::string sql =
      "SELECT " + SelectList(kProfiledKernelsColumns, "p", kReadAlone) + ", " +
      (ranges ? SelectList(kProfiledRangesColumns, "r") : NullList(kProfiledRangesColumns)) +
      " FROM profiled_kernels p " +
      (ranges ? "LEFT JOIN profiled_ranges r ON r.profiled_kernel_id = p.id " : "") +
      "ORDER BY p.profile_index, p.id";
  StatusOr<Statement> stmt = Statement::Prepare(report.db(), sql.c_str());
  if (!stmt.ok()) return ReadError(report, "cannot read profiled kernels of");
  constexpr int kRangeColumns = static_cast<int>(kProfiledKernelsColumns.size());
  constexpr int kNameId = ColumnIndex(kProfiledKernelsColumns, "name_id");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredProfile& p = profiles.emplace_back();
    // Names come from the reader's strings (shortened once there), not joined in here.
    ReadRecord(s, p, kProfiledKernelsRecordColumns, report);
    p.demangled_name = report.DemangledString(ColumnInt(s, kNameId)).value_or("");
    ReadRecord(s, p, kProfiledRangesRecordColumns, report, kRangeColumns);
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
  constexpr int kKernel = ColumnIndex(kKernelMetricsColumns, "profiled_kernel_id");
  constexpr int kValue = ColumnIndex(kKernelMetricsColumns, "value");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredMetric metric;
    ReadRecord(s, metric, kKernelMetricsRecordColumns, report);
    const int storage = sqlite3_column_type(s, kValue);
    if (storage == SQLITE_INTEGER || storage == SQLITE_FLOAT) {
      metric.value = sqlite3_column_double(s, kValue);
    } else if (storage != SQLITE_NULL) {
      metric.not_a_number = true;
    }
    metrics[sqlite3_column_int64(s, kKernel)].push_back(std::move(metric));
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
      report.db(), SelectSql(kKernelFindingsTable) + " ORDER BY profiled_kernel_id, rank");
  if (!stmt.ok()) return ReadError(report, "cannot read the findings of");
  constexpr int kKernel = ColumnIndex(kKernelFindingsColumns, "profiled_kernel_id");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    StoredFinding finding;
    ReadRecord(stmt->get(), finding, kKernelFindingsRecordColumns, report);
    findings[sqlite3_column_int64(stmt->get(), kKernel)].push_back(std::move(finding));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the findings of");
  return with_unsaved(std::move(findings));
}

}  // namespace gpuscope::store
