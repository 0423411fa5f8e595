// The writer's GPU metric rows (`gpuscope run --gpu-metrics`): the metrics of each device, its
// samples (one row each, the values packed as doubles) and how sampling went.
#include <sqlite3.h>

#include <bit>
#include <cstring>
#include <vector>

#include "store/gpu_metric_table_defs.h"
#include "store/record_binder.h"
#include "store/report_writer.h"
#include "store/report_writer_statements.h"

namespace gpuscope::store {

void ReportWriter::OnGpuMetric(const model::GpuMetricRecord& r) {
  if (!Accepting(kLossGpuMetricRows)) return;
  sqlite3_stmt* s = stmts_->insert_gpu_metric.get();
  BindRecord(s, r, kGpuMetricsRecordColumns);
  StepRecord(s, "cannot write a GPU metric", kLossGpuMetricRows);
}

void ReportWriter::OnGpuMetricSample(const model::GpuMetricSampleRecord& r) {
  if (!Accepting(kLossGpuMetricSamples)) return;
  // A sample without both times cannot be placed (and the columns are NOT NULL).
  if (r.start == 0 || r.end == 0 || r.end < r.start) return Lost(kLossGpuMetricSamples);
  static_assert(std::endian::native == std::endian::little,
                "metric_values are stored little-endian: a big-endian host must swap them");
  sqlite3_stmt* s = stmts_->insert_gpu_metric_sample.get();
  BindRecord(s, r, kGpuMetricSamplesRecordColumns, {}, StoredTimes());
  StepRecord(s, "cannot write a GPU metric sample", kLossGpuMetricSamples);
}

void ReportWriter::OnGpuMetricSampling(const model::GpuMetricSamplingRecord& r) {
  if (!Accepting(kLossGpuMetricRows)) return;
  sqlite3_stmt* s = stmts_->upsert_gpu_metric_sampling.get();
  BindRecord(s, r, kGpuMetricSamplingRecordColumns);
  StepRecord(s, "cannot write the GPU metric sampling state", kLossGpuMetricRows);
}

}  // namespace gpuscope::store
