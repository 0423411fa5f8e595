// Issue 13 on the GPU: `gpuscope run --gpu-metrics` samples what the GPU really did. The example
// gpu_metrics_phases keeps every SM busy for ~10 ms, leaves the GPU idle for ~10 ms, then runs a
// DRAM-bound copy; its report must read SM active near 100 % over the busy kernel, near 0 in the
// gap (its NVTX range), and DRAM read + write near the bandwidth the device reports (the
// `devices` row: CUPTI's globalMemoryBandwidth; H200 4.8 TB/s, H100 SXM 3.35 TB/s) over the
// copy. The values are printed, so that a failure shows how far off they were. It also checks
// that the samples are on the trace's clock (they would miss the kernels otherwise), that every
// sample of the sampled span is either kept or counted as dropped, at the default rate and at
// the highest, and that a second gpuscope sampling the same GPU at the same time either samples
// too or says once why not, with both traces complete.
#include <gtest/gtest.h>

#include <cstdio>
#include <future>
#include <sstream>
#include <string>

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

void PrintSampling(const store::StoredGpuMetricSampling& device) {
  std::printf("[gpu metrics] device %u: chip %s, set %s, every %llu ns: %llu samples kept, %llu "
              "dropped, %llu overflows, fitting interval %llu ns%s%s\n",
              device.device_id, device.chip.c_str(), device.set_name.c_str(),
              static_cast<unsigned long long>(device.interval_ns),
              static_cast<unsigned long long>(device.samples),
              static_cast<unsigned long long>(device.dropped_samples),
              static_cast<unsigned long long>(device.overflows),
              static_cast<unsigned long long>(device.fitting_interval_ns),
              device.status.empty() ? "" : ", status: ", device.status.c_str());
}

// Every sample of the sampled span is kept or counted as dropped: kept + dropped within 10 % of
// the span (first kept sample's start to last kept sample's end) over the interval. A sample
// lost without being counted shows here.
void ExpectEverySampleAccountedFor(const Report& report,
                                   const store::StoredGpuMetricSampling& device) {
  model::Timestamp first = 0, last = 0;
  std::uint64_t rows = 0;
  Status read = store::ForEachGpuMetricSample(*report.reader, [&](const auto& sample) {
    if (sample.device_id != device.device_id) return true;
    if (first == 0) first = sample.start;
    last = sample.end;
    ++rows;
    return true;
  });
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(rows, device.samples) << "gpu_metric_sampling.samples is not the rows kept";
  ASSERT_GT(last, first);
  ASSERT_NE(device.interval_ns, 0u);
  const double expected = static_cast<double>(last - first) / static_cast<double>(device.interval_ns);
  const double accounted = static_cast<double>(device.samples + device.dropped_samples);
  std::printf("[gpu metrics] device %u: %.3f ms sampled: %.0f samples expected, %.0f kept + "
              "dropped\n",
              device.device_id, (last - first) / 1e6, expected, accounted);
  EXPECT_GE(accounted, 0.9 * expected) << "samples lost without being counted as dropped";
  EXPECT_LE(accounted, 1.1 * expected) << "more samples counted than the span holds";
}

// Kernels whose demangled name contains `fragment` (the example's are in an anonymous namespace).
int KernelsContaining(const Report& report, const std::string& fragment) {
  int count = 0;
  for (const Kernel& kernel : report.kernels) {
    if (kernel.name.find(fragment) != std::string::npos) ++count;
  }
  return count;
}

int CountLinesWith(const std::string& text, const std::string& fragment) {
  std::istringstream lines(text);
  int count = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find(fragment) != std::string::npos) ++count;
  }
  return count;
}

TEST(GpuMetrics, SmActiveDramBandwidthAndTheIdleGapReadWhatTheGpuDid) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("gpu_metrics_phases")}, 0, run,
                                                report, {"--gpu-metrics"}));
  std::printf("%s", run.result.out.c_str());
  // The trace is whole: both kernels are in it.
  EXPECT_EQ(KernelsContaining(report, "spin_all_sms("), 1);
  EXPECT_EQ(KernelsContaining(report, "stream_copy("), 1);
  ASSERT_TRUE(store::HasGpuMetricTables(*report.reader));

  StatusOr<analysis::GpuMetricsSummary> summary = analysis::SummarizeGpuMetrics(*report.reader);
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ASSERT_FALSE(summary->sampling.empty()) << "no sampling state: the sampler never ran";
  for (const store::StoredGpuMetricSampling& device : summary->sampling) PrintSampling(device);
  const store::StoredGpuMetricSampling& device0 = summary->sampling.front();
  ASSERT_EQ(device0.status, "") << "device 0 was not sampled";
  EXPECT_GT(device0.samples, 300u) << "the run lasts > 30 ms: > 300 samples at 10 kHz";
  EXPECT_EQ(device0.overflows, 0u) << "the hardware buffer overflowed at the default rate";
  ExpectEverySampleAccountedFor(report, device0);

  const auto* busy_sm =
      Find(*summary, GpuMetricScope::kKernel, "spin_all_sms(", GpuMetricRole::kSmActive);
  const auto* busy_warps =
      Find(*summary, GpuMetricScope::kKernel, "spin_all_sms(", GpuMetricRole::kWarpsInFlight);
  const auto* gap_sm = Find(*summary, GpuMetricScope::kNvtx, "gap", GpuMetricRole::kSmActive);
  const auto* copy_read =
      Find(*summary, GpuMetricScope::kKernel, "stream_copy(", GpuMetricRole::kDramRead);
  const auto* copy_write =
      Find(*summary, GpuMetricScope::kKernel, "stream_copy(", GpuMetricRole::kDramWrite);
  Print("SM active, busy kernel", busy_sm, 1, "%");
  Print("warps in flight, busy kernel", busy_warps, 1, "%");
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

  // The card's bandwidth as the device reports it (kB/s in the devices row).
  ASSERT_FALSE(report.reader->devices().empty());
  const double peak = static_cast<double>(
                          report.reader->devices().front().record.global_memory_bandwidth_kbps) *
                      1e3;
  ASSERT_GT(peak, 0) << "the device reports no memory bandwidth";
  const double dram = copy_read->average + copy_write->average;
  std::printf("[gpu metrics] DRAM read + write over the copy: %.0f GB/s = %.1f %% of the device's "
              "%.0f GB/s\n",
              dram * 1e-9, 100 * dram / peak, peak * 1e-9);
  // A streaming copy reaches 80-90 % of the peak on H100/H200; samples at the kernel's edges
  // overlap the ramp up and down.
  EXPECT_GE(dram, 0.6 * peak) << "DRAM read + write far below the card's bandwidth over the copy";
  EXPECT_LE(dram, 1.05 * peak) << "DRAM read + write above the card's bandwidth: wrong unit?";
}

// The highest rate: the program runs and is traced whatever the sampler manages; whatever was
// lost is counted (kept + dropped still cover the span), stored, printed at the end of the run
// and, after an overflow, named with the rate that would fit.
TEST(GpuMetrics, HighestRateKeepsTheTraceAndCountsLosses) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("gpu_metrics_phases")},
                                   {"--gpu-metrics", "--gpu-metrics-frequency", "200000"});
  std::printf("%s", run.result.err.c_str());
  EXPECT_EQ(run.result.exit_code, 0) << run.result.err;
  ASSERT_EQ(run.reports.size(), 1u);
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(report.ok()) << report.load_error;
  EXPECT_EQ(KernelsContaining(report, "spin_all_sms("), 1);
  EXPECT_EQ(KernelsContaining(report, "stream_copy("), 1);
  StatusOr<analysis::GpuMetricsSummary> summary = analysis::SummarizeGpuMetrics(*report.reader);
  ASSERT_TRUE(summary.ok());
  ASSERT_FALSE(summary->sampling.empty());
  for (const store::StoredGpuMetricSampling& device : summary->sampling) PrintSampling(device);
  for (const std::string& note : analysis::GpuMetricSamplingNotes(*summary)) {
    std::printf("[gpu metrics] note: %s\n", note.c_str());
  }
  const store::StoredGpuMetricSampling& device0 = summary->sampling.front();
  ASSERT_EQ(device0.status, "");
  EXPECT_EQ(device0.interval_ns, 5'000u);
  ExpectEverySampleAccountedFor(report, device0);
  if (device0.dropped_samples != 0) {
    EXPECT_EQ(CountLinesWith(run.result.err, "sample(s) dropped"), 1)
        << "the loss is not said at the end of the run";
  }
  if (device0.overflows != 0) {
    EXPECT_GT(device0.fitting_interval_ns, device0.interval_ns);
    EXPECT_EQ(CountLinesWith(run.result.err, "would fit"), 1);
  }
}

// Two gpuscopes sampling one GPU at once: the second either samples too or cannot (the
// counters are held), and then says so in one line with the cause, and both traces are whole.
TEST(GpuMetrics, CountersHeldByAnotherRunCostOneLineAndTheTraceGoesOn) {
  ScratchDir first_dir, second_dir;
  auto first = std::async(std::launch::async, [&] {
    return RunUnderGpuscope(first_dir, {ExampleBinary("gpu_metrics_phases")}, {"--gpu-metrics"});
  });
  TracedRun second =
      RunUnderGpuscope(second_dir, {ExampleBinary("gpu_metrics_phases")}, {"--gpu-metrics"});
  TracedRun first_run = first.get();
  for (TracedRun* run : {&first_run, &second}) {
    EXPECT_EQ(run->result.exit_code, 0) << run->result.err;
    ASSERT_EQ(run->reports.size(), 1u);
    Report report = LoadReport(run->reports[0]);
    ASSERT_TRUE(report.ok()) << report.load_error;
    EXPECT_EQ(KernelsContaining(report, "spin_all_sms("), 1);
    EXPECT_EQ(KernelsContaining(report, "stream_copy("), 1);
    StatusOr<std::vector<store::StoredGpuMetricSampling>> sampling =
        store::ReadGpuMetricSampling(*report.reader);
    ASSERT_TRUE(sampling.ok());
    ASSERT_FALSE(sampling->empty());
    PrintSampling(sampling->front());
    const std::string& status = sampling->front().status;
    if (!status.empty()) {
      EXPECT_NE(status.find("the trace goes on without GPU metrics"), std::string::npos) << status;
      EXPECT_EQ(CountLinesWith(run->result.err, "the trace goes on without GPU metrics"), 1)
          << run->result.err;
    }
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
