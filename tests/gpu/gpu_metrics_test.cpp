// Issue 13 on the GPU: `gpuscope run --gpu-metrics` samples what the GPU really did. The example
// gpu_metrics_phases keeps every SM busy for ~10 ms, leaves the GPU idle for ~10 ms, then runs a
// DRAM-bound copy; its report must read SM active near 100 % over the busy kernel, near 0 in the
// gap (its NVTX range), and DRAM read + write near the card's bandwidth over the copy (H100/H200:
// at least 2 TB/s). The values are printed, so that a failure shows how far off they were. It
// also checks that the samples are on the trace's clock (they would miss the kernels otherwise)
// and that nothing was lost at 10 kHz.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include "analysis/gpu_metrics_summary.h"
#include "report_expectations.h"
#include "store/gpu_metric_tables.h"
#include "traced_run.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::gpu_test {
namespace {

using analysis::GpuMetricAggregate;
using analysis::GpuMetricScope;

const GpuMetricAggregate* Find(const analysis::GpuMetricsSummary& summary, GpuMetricScope scope,
                               const std::string& name, GpuMetricRole role) {
  for (const GpuMetricAggregate& row : summary.rows) {
    // Kernels by a fragment of their demangled name (the demangler's spelling of the parameters
    // is not this test's business).
    const bool named = scope == GpuMetricScope::kKernel ? row.name.find(name) != std::string::npos
                                                        : row.name == name;
    if (row.scope == scope && named && row.role == static_cast<std::uint8_t>(role)) {
      return &row;
    }
  }
  return nullptr;
}

void Print(const char* what, const GpuMetricAggregate* row, double scale, const char* unit) {
  if (row == nullptr) {
    std::printf("[gpu metrics] %-34s no samples\n", what);
    return;
  }
  std::printf("[gpu metrics] %-34s avg %10.2f %s  peak %10.2f %s  (%llu samples, %.3f ms)\n", what,
              row->average * scale, unit, row->peak * scale, unit,
              static_cast<unsigned long long>(row->samples), row->covered_ns / 1e6);
}

TEST(GpuMetrics, SmActiveDramBandwidthAndTheIdleGapReadWhatTheGpuDid) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("gpu_metrics_phases")}, 0, run,
                                                report, {"--gpu-metrics"}));
  std::printf("%s", run.result.out.c_str());
  ASSERT_TRUE(store::HasGpuMetricTables(*report.reader));

  StatusOr<analysis::GpuMetricsSummary> summary = analysis::SummarizeGpuMetrics(*report.reader);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ASSERT_FALSE(summary->sampling.empty()) << "no sampling state: the sampler never ran";
  for (const store::StoredGpuMetricSampling& device : summary->sampling) {
    std::printf("[gpu metrics] device %u: chip %s, set %s, every %llu ns: %llu samples kept, %llu "
                "dropped, %llu overflows%s%s\n",
                device.device_id, device.chip.c_str(), device.set_name.c_str(),
                static_cast<unsigned long long>(device.interval_ns),
                static_cast<unsigned long long>(device.samples),
                static_cast<unsigned long long>(device.dropped_samples),
                static_cast<unsigned long long>(device.overflows),
                device.status.empty() ? "" : ", status: ", device.status.c_str());
  }
  const store::StoredGpuMetricSampling& device0 = summary->sampling.front();
  ASSERT_EQ(device0.status, "") << "device 0 was not sampled";
  EXPECT_GT(device0.samples, 100u) << "the run lasts > 30 ms: > 300 samples at 10 kHz";
  EXPECT_EQ(device0.overflows, 0u) << "the hardware buffer overflowed at the default rate";

  const auto* busy_sm = Find(*summary, GpuMetricScope::kKernel,
                             "spin_all_sms(",
                             GpuMetricRole::kSmActive);
  const auto* gap_sm = Find(*summary, GpuMetricScope::kNvtx, "gap", GpuMetricRole::kSmActive);
  const auto* copy_read = Find(
      *summary, GpuMetricScope::kKernel,
      "stream_copy(",
      GpuMetricRole::kDramRead);
  const auto* copy_write = Find(
      *summary, GpuMetricScope::kKernel,
      "stream_copy(",
      GpuMetricRole::kDramWrite);
  const auto* busy_issue = Find(*summary, GpuMetricScope::kKernel,
                                "spin_all_sms(",
                                GpuMetricRole::kWarpsInFlight);
  Print("SM active, busy kernel", busy_sm, 1, "%");
  Print("warps in flight, busy kernel", busy_issue, 1, "%");
  Print("SM active, idle gap (NVTX 'gap')", gap_sm, 1, "%");
  Print("DRAM read, copy kernel", copy_read, 1e-9, "GB/s");
  Print("DRAM write, copy kernel", copy_write, 1e-9, "GB/s");
  if (busy_sm == nullptr || copy_read == nullptr) {
    for (const GpuMetricAggregate& row : summary->rows) {
      std::printf("[gpu metrics] row: scope %d name '%s' metric %s avg %g\n",
                  static_cast<int>(row.scope), row.name.c_str(), row.label.c_str(), row.average);
    }
  }
  ASSERT_NE(busy_sm, nullptr) << "no sample inside the busy kernel: are the clocks apart?";
  ASSERT_NE(gap_sm, nullptr) << "no sample inside the gap";
  ASSERT_NE(copy_read, nullptr);
  ASSERT_NE(copy_write, nullptr);
  EXPECT_GE(busy_sm->average, 90.0);
  EXPECT_LE(gap_sm->average, 5.0);
  EXPECT_GE((copy_read->average + copy_write->average) * 1e-12, 2.0)
      << "DRAM read + write below 2 TB/s over the copy";
}

// The highest rate: the program runs and is traced whatever the sampler manages; whatever was
// lost is counted and printed (the notes `stats --report gpu_metrics_sum` prints).
TEST(GpuMetrics, HighestRateKeepsTheTraceAndCountsLosses) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("vector_add")},
                                   {"--gpu-metrics", "--gpu-metrics-frequency", "200000"});
  EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_EQ(run.reports.size(), 1u);
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(report.ok()) << report.load_error;
  EXPECT_EQ(report.kernels.size(), 1u);
  StatusOr<analysis::GpuMetricsSummary> summary = analysis::SummarizeGpuMetrics(*report.reader);
  ASSERT_TRUE(summary.ok());
  for (const std::string& note : analysis::GpuMetricSamplingNotes(*summary)) {
    std::printf("[gpu metrics] note: %s\n", note.c_str());
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
