#include "store/gpu_metric_tables.h"

#include <sqlite3.h>

#include <cstring>
#include <map>

#include "store/declared_sql.h"
#include "store/gpu_metric_table_defs.h"
#include "store/record_decoder.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

// The most metrics a device's samples may carry: far above any set, low enough that a crafted
// report cannot make a reader allocate much per row.
constexpr std::size_t kMaxMetricsPerDevice = 256;

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
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
    ReadRecord(stmt->get(), metrics.emplace_back(), kGpuMetricsRecordColumns, report);
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
    ReadRecord(stmt->get(), rows.emplace_back(), kGpuMetricSamplingRecordColumns, report);
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
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(), SelectSql(kGpuMetricSamplesTable) + " ORDER BY id");
  if (!stmt.ok()) return ReadError(report, "cannot read the GPU metric samples");
  constexpr int kDevice = ColumnIndex(kGpuMetricSamplesColumns, "device_id");
  constexpr int kStart = ColumnIndex(kGpuMetricSamplesColumns, "start");
  constexpr int kEnd = ColumnIndex(kGpuMetricSamplesColumns, "end");
  constexpr int kValues = ColumnIndex(kGpuMetricSamplesColumns, "metric_values");
  StoredGpuMetricSample sample;
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    const std::int64_t device = ColumnInt(s, kDevice);
    const void* blob = sqlite3_column_blob(s, kValues);
    const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(s, kValues));
    auto count = metric_count.find(static_cast<std::uint32_t>(device));
    const bool fits = device >= 0 && device <= 0xFFFFFFFFll && count != metric_count.end() &&
                      count->second <= kMaxMetricsPerDevice &&
                      bytes == count->second * sizeof(double) &&
                      ColumnInt(s, kEnd) >= ColumnInt(s, kStart) &&
                      sqlite3_column_type(s, kStart) == SQLITE_INTEGER &&
                      sqlite3_column_type(s, kEnd) == SQLITE_INTEGER;
    if (!fits) {
      if (damaged != nullptr) ++*damaged;
      continue;
    }
    ReadRecord(s, sample, kGpuMetricSamplesRecordColumns, report);
    sample.values.resize(count->second);
    if (bytes != 0) std::memcpy(sample.values.data(), blob, bytes);
    if (!fn(sample)) return Status();
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the GPU metric samples");
  return Status();
}

}  // namespace gpuscope::store
