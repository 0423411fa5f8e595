// GPU clock pairs (cupti/tracing/gpu_clock.h) in real runs: gpuscope's clock kernel reads each GPU's
// %globaltimer at every flush and at the end, the report holds those pairs (device_id set)
// with the host clocks around them, and nothing of gpuscope's own work shows in the trace.
// Prints the pairs' offsets and uncertainties, so that a run's output says what they were.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "expected_counts.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;

// The launch loop runs ~1-3 s under tracing: with a flush every 100 ms, a dozen flushes or more.
constexpr long kLaunches = 400'000;
const Environment kFastFlushes = {{"GPUSCOPE_FLUSH_MS", "100"}};

// The spread the GPU clock's offset from CLOCK_REALTIME may have over one run: each pair is
// known to +- its uncertainty (two of them between the extremes); %globaltimer ticks in up to
// 1 us steps on some GPUs (twice: 2 us); and the GPU's clock may drift from the host's by
// tens of ppm between the driver's corrections (50 ppm of the run). CUPTI relies on the same
// closeness when it normalises every GPU time to its host clock, so a wider spread would mean
// that the kernels' times in the report are off by as much.
std::int64_t AllowedSpreadNs(std::int64_t max_uncertainty_ns, std::int64_t run_ns) {
  return 2 * max_uncertainty_ns + 2'000 + run_ns / 20'000;
}

TEST(GpuClockPairs, PairsAtFlushesAndEndWithASmallSpreadAndNoKernelOfOurs) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("launch_loop"), std::to_string(kLaunches)},
                                   {}, kFastFlushes);
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  ASSERT_TRUE(WroteReports(run, 1));
  EXPECT_EQ(run.result.err.find("GPU clock pairs are off"), std::string::npos) << run.result.err;
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report));
  ExpectNothingLost(report);

  // The trace holds the program's work only: its kernels, every driver launch nested in its
  // runtime launch (gpuscope's cuLaunchKernel is a driver call of its own), and the left-out
  // records counted (below: at least the launch call and the kernel of each pair).
  EXPECT_EQ(report.kernels.size(), static_cast<std::size_t>(kLaunches));
  EXPECT_EQ(report.CountKernels(ex::kLaunchLoopKernel), kLaunches);
  EXPECT_EQ(report.CountKernels("gpuscope_clock_read"), 0);
  for (const ApiCall& call : report.api_calls) {
    if (call.name == "cuLaunchKernel") {
      ASSERT_TRUE(call.nested_in_runtime) << "a driver launch the program did not make";
    }
    ASSERT_NE(call.name, "cuModuleLoadData") << "gpuscope's module load is in the trace";
    ASSERT_NE(call.name, "cuMemHostAlloc") << "gpuscope's pinned slot is in the trace";
  }

  const std::vector<store::ClockSample>& samples = report.reader->ClockSamples();
  ASSERT_FALSE(samples.empty());
  EXPECT_FALSE(samples.front().device_id.has_value())
      << "the start's sample (inside cuInit, no context yet) is the host's only";
  ASSERT_TRUE(samples.back().device_id.has_value()) << "the end's sample has its GPU pair";
  std::vector<const store::ClockSample*> pairs;
  int host_rows = 0;
  for (const store::ClockSample& sample : samples) {
    if (!sample.device_id) {
      ++host_rows;
      continue;
    }
    pairs.push_back(&sample);
    ASSERT_TRUE(sample.gpu_ns.has_value());
    ASSERT_TRUE(sample.gpu_uncertainty_ns.has_value());
  }
  // At most one pair per device per flush; a pair at the flushes (some may be skipped while
  // the kernel waits behind the loop's launches: counted, not an error) and at the end.
  EXPECT_LE(pairs.size(), static_cast<std::size_t>(host_rows));
  ASSERT_GE(pairs.size(), 3u) << host_rows << " host samples";
  EXPECT_GE(report.reader->counters().own_replay_records, 2 * pairs.size())
      << "gpuscope's own calls and kernels were left out and counted";
  std::int64_t low = INT64_MAX, high = INT64_MIN, max_uncertainty = 0;
  for (const store::ClockSample* pair : pairs) {
    const std::int64_t offset = *pair->gpu_ns - pair->realtime_ns;
    low = std::min(low, offset);
    high = std::max(high, offset);
    max_uncertainty = std::max(max_uncertainty, *pair->gpu_uncertainty_ns);
    EXPECT_GE(*pair->gpu_uncertainty_ns, 0);
    EXPECT_LE(*pair->gpu_uncertainty_ns, 1'000'000) << "the poll's timeout is 1 ms";
    std::printf("pair: device %u, gpu - realtime %lld ns, +- %lld ns\n", *pair->device_id,
                static_cast<long long>(offset),
                static_cast<long long>(*pair->gpu_uncertainty_ns));
  }
  const std::int64_t run_ns = samples.back().monotonic_ns - samples.front().monotonic_ns;
  std::printf("%zu GPU pairs of %d samples over %lld ns: offset spread %lld ns (allowed %lld)\n",
              pairs.size(), host_rows, static_cast<long long>(run_ns),
              static_cast<long long>(high - low),
              static_cast<long long>(AllowedSpreadNs(max_uncertainty, run_ns)));
  EXPECT_LE(high - low, AllowedSpreadNs(max_uncertainty, run_ns));
}

// A program that captures a graph while gpuscope flushes every millisecond: the capture is
// never broken (the program checks every call), and its graph holds its own kernels only.
TEST(GpuClockPairs, StreamCaptureIsNeverDisturbed) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("graph_replay")}, {},
                                   {{"GPUSCOPE_FLUSH_MS", "1"}});
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  ASSERT_TRUE(WroteReports(run, 1));
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report));
  EXPECT_EQ(report.kernels.size(), static_cast<std::size_t>(ex::kGraphKernels * ex::kGraphLaunches));
  EXPECT_EQ(report.CountKernels(ex::kGraphKernel), ex::kGraphKernels * ex::kGraphLaunches);
  EXPECT_EQ(run.result.err.find("GPU clock pairs are off"), std::string::npos) << run.result.err;
}

}  // namespace
}  // namespace gpuscope::gpu_test
