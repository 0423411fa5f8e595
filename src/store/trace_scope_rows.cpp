#include "store/trace_scope_rows.h"

#include <sqlite3.h>

#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

bool HasTable(const ReportReader& report, const char* table) {
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1");
  if (!stmt.ok()) return false;
  sqlite3_bind_text(stmt->get(), 1, table, -1, SQLITE_STATIC);
  return sqlite3_step(stmt->get()) == SQLITE_ROW;
}

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
}

bool HasName(const std::string& list, std::string_view name) {
  std::size_t at = 0;
  while (at <= list.size()) {
    std::size_t comma = list.find(',', at);
    if (comma == std::string::npos) comma = list.size();
    if (std::string_view(list).substr(at, comma - at) == name) return true;
    at = comma + 1;
  }
  return false;
}

model::Timestamp Absolute(const ReportReader& report, sqlite3_stmt* s, int column) {
  if (sqlite3_column_type(s, column) == SQLITE_NULL) return 0;
  return report.time_base() + static_cast<model::Timestamp>(ColumnInt(s, column));
}

}  // namespace

bool RecordedScope::TracedCudaApi() const { return HasName(trace, "cuda"); }
bool RecordedScope::TracedCudaGpu() const {
  return HasName(trace, "cuda") || HasName(trace, "cuda-gpu");
}
bool RecordedScope::TracedNvtx() const { return HasName(trace, "nvtx"); }

StatusOr<RecordedScope> ReadRecordedScope(const ReportReader& report) {
  RecordedScope scope;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT key, value FROM meta WHERE key IN ('trace', 'api_capture', 'cuda_graph_trace')");
  if (!stmt.ok()) return ReadError(report, "cannot read report");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    const std::string_view key = ColumnText(stmt->get(), 0);
    std::string value(ColumnText(stmt->get(), 1));
    if (key == "trace") scope.trace = std::move(value);
    if (key == "api_capture") scope.api_capture = std::move(value);
    if (key == "cuda_graph_trace") scope.cuda_graph_trace = std::move(value);
    scope.recorded = true;
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read report");
  return scope;
}

StatusOr<std::vector<ApiCallCountRow>> ReadApiCallCounts(const ReportReader& report,
                                                         std::uint64_t* damaged) {
  std::vector<ApiCallCountRow> rows;
  if (!HasTable(report, "api_call_counts")) return rows;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT c.thread_id, c.domain, c.cbid, c.name_id, c.process_id, c.calls, c.total_ns, "
      "c.min_ns, c.max_ns, c.first_start, c.last_end FROM api_call_counts c "
      "ORDER BY c.thread_id, c.domain, c.cbid");
  if (!stmt.ok()) return ReadError(report, "cannot read report");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    const std::int64_t calls = ColumnInt(s, 5), total = ColumnInt(s, 6);
    const std::int64_t min = ColumnInt(s, 7), max = ColumnInt(s, 8);
    const std::int64_t domain = ColumnInt(s, 1);
    // The name from the reader's strings (shortened once there); an unknown id is damage.
    const std::optional<std::string_view> name = report.String(ColumnInt(s, 3));
    if (calls <= 0 || total < 0 || min < 0 || max < min || (domain != 1 && domain != 2) ||
        !name.has_value()) {
      if (damaged != nullptr) ++*damaged;
      continue;
    }
    ApiCallCountRow row;
    row.record.thread_id = static_cast<std::uint32_t>(ColumnInt(s, 0));
    row.record.domain = static_cast<model::ApiDomain>(domain);
    row.record.cbid = static_cast<std::uint32_t>(ColumnInt(s, 2));
    row.name_id = static_cast<std::uint32_t>(ColumnInt(s, 3));
    row.record.process_id = static_cast<std::uint32_t>(ColumnInt(s, 4));
    row.record.calls = static_cast<std::uint64_t>(calls);
    row.record.total_ns = static_cast<std::uint64_t>(total);
    row.record.min_ns = static_cast<std::uint64_t>(min);
    row.record.max_ns = static_cast<std::uint64_t>(max);
    row.record.first_start = Absolute(report, s, 9);
    row.record.last_end = Absolute(report, s, 10);
    row.name = std::string(*name);
    rows.push_back(std::move(row));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read report");
  for (ApiCallCountRow& row : rows) row.record.name = row.name;  // after the vector settled
  return rows;
}

StatusOr<std::vector<model::GraphLaunchRecord>> ReadGraphLaunches(const ReportReader& report) {
  std::vector<model::GraphLaunchRecord> launches;
  if (!HasTable(report, "graph_launches")) return launches;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT start, \"end\", device_id, context_id, stream_id, correlation_id, graph_id "
      "FROM graph_launches ORDER BY id");
  if (!stmt.ok()) return ReadError(report, "cannot read report");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    model::GraphLaunchRecord launch;
    launch.start = Absolute(report, s, 0);
    launch.end = Absolute(report, s, 1);
    launch.device_id = static_cast<std::uint32_t>(ColumnInt(s, 2));
    launch.context_id = static_cast<std::uint32_t>(ColumnInt(s, 3));
    launch.stream_id = static_cast<std::uint32_t>(ColumnInt(s, 4));
    launch.correlation_id = static_cast<std::uint32_t>(ColumnInt(s, 5));
    launch.graph_id = static_cast<std::uint32_t>(ColumnInt(s, 6));
    launches.push_back(launch);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read report");
  return launches;
}

}  // namespace gpuscope::store
