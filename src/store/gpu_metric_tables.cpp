#include "store/gpu_metric_tables.h"

#include <sqlite3.h>

#include <cstring>
#include <map>

#include "store/declared_sql.h"
#include "store/gpu_metric_table_defs.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

// The most metrics a device's samples may carry: far above any set, low enough that a crafted
// report cannot make a reader allocate much per row.
constexpr std::size_t kMaxMetricsPerDevice = 256;

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
}

std::uint64_t ColumnU64(sqlite3_stmt* s, int column) {
  return static_cast<std::uint64_t>(sqlite3_column_int64(s, column));
}

}  // namespace

bool HasGpuMetricTables(const ReportReader& report) {
  return TableExists(report.db(), "gpu_metrics") &&
         TableExists(report.db(), "gpu_metric_samples") &&
         TableExists(report.db(), "gpu_metric_sampling");
}

StatusOr<std::vector<StoredGpuMetric>> ReadGpuMetrics(const ReportReader& report) {
  std::vector<StoredGpuMetric> metrics;
  if (!HasGpuMetricTables(report)) return metrics;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), SelectSql(kGpuMetricsTable) + " ORDER BY device_id, idx");
  if (!stmt.ok()) return ReadError(report, "cannot read the GPU metrics");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredGpuMetric& metric = metrics.emplace_back();
    metric.device_id = ColumnU32(s, 0);
    metric.index = ColumnU32(s, 1);
    metric.name = report.ReportText(ColumnText(s, 2));
    metric.label = report.ReportText(ColumnText(s, 3));
    metric.unit = report.ReportText(ColumnText(s, 4));
    metric.role = static_cast<std::uint8_t>(ColumnInt(s, 5));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the GPU metrics");
  return metrics;
}

StatusOr<std::vector<StoredGpuMetricSampling>> ReadGpuMetricSampling(const ReportReader& report) {
  std::vector<StoredGpuMetricSampling> rows;
  if (!HasGpuMetricTables(report)) return rows;
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(), SelectSql(kGpuMetricSamplingTable) + " ORDER BY device_id");
  if (!stmt.ok()) return ReadError(report, "cannot read how GPU metrics were sampled");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredGpuMetricSampling& row = rows.emplace_back();
    row.device_id = ColumnU32(s, 0);
    row.chip = report.ReportText(ColumnText(s, 1));
    row.set_name = report.ReportText(ColumnText(s, 2));
    row.interval_ns = ColumnU64(s, 3);
    row.hardware_buffer_bytes = ColumnU64(s, 4);
    row.samples = ColumnU64(s, 5);
    row.dropped_samples = ColumnU64(s, 6);
    row.overflows = ColumnU64(s, 7);
    row.fitting_interval_ns = ColumnU64(s, 8);
    row.status = report.ReportText(ColumnText(s, 9));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read how GPU metrics were sampled");
  return rows;
}

Status ForEachGpuMetricSample(const ReportReader& report,
                              const std::function<bool(const StoredGpuMetricSample&)>& fn,
                              std::uint64_t* damaged) {
  if (!HasGpuMetricTables(report)) return Status();
  StatusOr<std::vector<StoredGpuMetric>> metrics = ReadGpuMetrics(report);
  if (!metrics.ok()) return metrics.status();
  std::map<std::uint32_t, std::size_t> metric_count;  // per device
  for (const StoredGpuMetric& metric : *metrics) ++metric_count[metric.device_id];
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT device_id, start, \"end\", metric_values FROM gpu_metric_samples ORDER BY id");
  if (!stmt.ok()) return ReadError(report, "cannot read the GPU metric samples");
  StoredGpuMetricSample sample;
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    const std::int64_t device = ColumnInt(s, 0);
    const std::int64_t start = ColumnInt(s, 1);
    const std::int64_t end = ColumnInt(s, 2);
    const void* blob = sqlite3_column_blob(s, 3);
    const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(s, 3));
    auto count = metric_count.find(static_cast<std::uint32_t>(device));
    const bool fits = device >= 0 && device <= 0xFFFFFFFFll && count != metric_count.end() &&
                      count->second <= kMaxMetricsPerDevice &&
                      bytes == count->second * sizeof(double) && end >= start &&
                      sqlite3_column_type(s, 1) == SQLITE_INTEGER &&
                      sqlite3_column_type(s, 2) == SQLITE_INTEGER;
    if (!fits) {
      if (damaged != nullptr) ++*damaged;
      continue;
    }
    sample.device_id = static_cast<std::uint32_t>(device);
    sample.start = report.time_base() + static_cast<model::Timestamp>(start);
    sample.end = report.time_base() + static_cast<model::Timestamp>(end);
    sample.values.resize(count->second);
    if (bytes != 0) std::memcpy(sample.values.data(), blob, bytes);
    if (!fn(sample)) return Status();
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the GPU metric samples");
  return Status();
}

}  // namespace gpuscope::store
