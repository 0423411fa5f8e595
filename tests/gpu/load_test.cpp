// Load (issue 14): many launches from many threads, ten million launches, and a report
// directory that fills up mid-run. The reports are read with COUNT(*)-style queries and
// streaming callbacks, never loaded whole (a 10 M-kernel report is ~500 MB of rows).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <sstream>
#include <string>

#include "expected_counts.h"
#include "store/report_reader.h"
#include "store/testing/small_filesystem.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;

std::unique_ptr<store::ReportReader> OpenOnly(const TracedRun& run) {
  EXPECT_EQ(run.reports.size(), 1u) << run.result.Describe();
  if (run.reports.size() != 1) return nullptr;
  auto reader = store::ReportReader::Open(run.reports[0]);
  EXPECT_TRUE(reader.ok()) << reader.status().message();
  return reader.ok() ? std::move(reader.value()) : nullptr;
}

void ExpectNothingLost(const store::ReportReader& report) {
  EXPECT_EQ(report.counters().dropped_records, 0u);
  EXPECT_EQ(report.records_not_written(), 0u);
  EXPECT_EQ(report.counters().kernels_without_timestamp, 0u);
  EXPECT_EQ(report.counters().unreadable_buffers, 0u);
}

// 16 threads x 100,000 launches = 1.6 M kernels. About 10-20 s traced on the H200.
TEST(GpuLoad, SixteenThreadsOfAHundredThousandLaunchesEachAllInTheReport) {
  constexpr int kPerThread = 100'000;
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("threads16"), std::to_string(kPerThread)},
                                   {"--quiet"}, {}, /*timeout_seconds=*/300);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.Describe();
  auto report = OpenOnly(run);
  ASSERT_NE(report, nullptr);
  ExpectNothingLost(*report);
  std::map<std::uint32_t, std::uint64_t> per_stream;
  Status kernels = report->ForEachKernel([&](const store::KernelRow& row) {
    ++per_stream[row.record.stream_id];
    return true;
  });
  ASSERT_TRUE(kernels.ok()) << kernels.message();
  EXPECT_EQ(report->CountRows("kernels").value(), std::uint64_t{ex::kThreads} * kPerThread);
  EXPECT_EQ(per_stream.size(), static_cast<std::size_t>(ex::kThreads)) << "one stream per thread";
  for (const auto& [stream, count] : per_stream) EXPECT_EQ(count, kPerThread) << "stream " << stream;
  std::map<std::uint32_t, std::uint64_t> launches_per_thread;
  Status calls = report->ForEachApiCall([&](const store::ApiCallRow& row) {
    if (row.record.name == "cudaLaunchKernel") ++launches_per_thread[row.record.thread_id];
    return true;
  });
  ASSERT_TRUE(calls.ok()) << calls.message();
  EXPECT_EQ(launches_per_thread.size(), static_cast<std::size_t>(ex::kThreads));
  for (const auto& [thread, count] : launches_per_thread) {
    EXPECT_EQ(count, kPerThread) << "thread " << thread;
  }
}

// 10 M tiny launches: about 30-60 s traced (and ~10 s untraced) on the H200. Memory bound:
// bench/RESULTS.md measured +147.5 MB peak RSS for gpuscope over the bare program at 10 M
// (the buffer pool, SQLite's 16 MiB page cache and the launcher); 200 MB leaves room for
// run-to-run noise but catches anything that grows with the number of launches (10 M rows of
// 50 bytes would be +500 MB).
TEST(GpuLoad, TenMillionKernelsAllInTheReportWithBoundedMemory) {
  constexpr long kKernels = 10'000'000;
  constexpr long kRssBoundKib = 200 * 1000;
  CommandResult bare = RunCommand({ExampleBinary("launch_loop"), std::to_string(kKernels)}, {}, 300);
  ASSERT_EQ(bare.exit_code, 0) << bare.Describe();
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("launch_loop"), std::to_string(kKernels)},
                                   {"--quiet"}, {}, /*timeout_seconds=*/540);
  ASSERT_EQ(run.result.exit_code, 0) << run.result.Describe();
  auto report = OpenOnly(run);
  ASSERT_NE(report, nullptr);
  ExpectNothingLost(*report);
  EXPECT_EQ(report->CountRows("kernels").value(), static_cast<std::uint64_t>(kKernels));
  EXPECT_LT(run.result.max_rss_kib - bare.max_rss_kib, kRssBoundKib)
      << "traced peak " << run.result.max_rss_kib << " KiB, untraced " << bare.max_rss_kib
      << " KiB";
}

// The report directory is a 4 MiB tmpfs (a private mount namespace: needs root or user
// namespaces; skipped otherwise). launch_loop's 3 M launches take a few seconds and fill it.
// About 10-20 s.
TEST(GpuLoad, AReportDirectoryThatFillsUpLeavesTheProgramAndTheWrittenPartAlone) {
  constexpr long kKernels = 3'000'000;
  store::testing::SmallFilesystemRun fs = store::testing::RunInSmallFilesystem(
      4 << 20,
      [](const std::string& dir) {
        const std::string path = dir + "/r.sqlite";
        CommandResult run = RunCommand({GpuscopeBinary(), "run", "-o", path, "--",
                                        ExampleBinary("launch_loop"), std::to_string(kKernels)},
                                       {}, 300);
        CommandResult stats = RunCommand({GpuscopeBinary(), "stats", path}, {}, 120);
        std::ostringstream out;
        out << "exit=" << run.exit_code << "\nsignaled=" << run.signaled << "\n";
        int incomplete_lines = 0, lost_lines = 0;
        std::istringstream err(run.err);
        for (std::string line; std::getline(err, line);) {
          if (line.find("is incomplete from") != std::string::npos &&
              line.find("gpuscope:") != std::string::npos) {
            ++incomplete_lines;
          }
          // The injection's own line at the end (the summary's warning repeats the count).
          if (line.find("records could not be written (kernels ") != std::string::npos &&
              line.find("gpuscope: report ") != std::string::npos) {
            ++lost_lines;
          }
        }
        out << "incomplete_lines=" << incomplete_lines << "\nlost_lines=" << lost_lines
            << "\nsummary_says_incomplete="
            << (run.err.find("the report is incomplete from") != std::string::npos)
            << "\nstats_exit=" << stats.exit_code << "\nstats_says_incomplete="
            << ((stats.out + stats.err).find("the report is incomplete from") != std::string::npos)
            << "\n";
        auto reader = store::ReportReader::Open(path);
        out << "kernels=" << (reader.ok() ? reader.value()->CountRows("kernels").value() : 0)
            << "\nlost=" << (reader.ok() ? reader.value()->records_not_written() : 0)
            << "\n---stderr---\n" << run.err;
        return out.str();
      },
      600);
  if (!fs.ran) GTEST_SKIP() << "cannot mount a small tmpfs here: " << fs.why_not;
  ASSERT_EQ(fs.died_of_signal, 0) << fs.stderr_text;
  const std::string& r = fs.result;
  EXPECT_NE(r.find("exit=0\n"), std::string::npos) << r;  // launch_loop's own exit code
  EXPECT_NE(r.find("signaled=0\n"), std::string::npos) << r;
  EXPECT_NE(r.find("incomplete_lines=1\n"), std::string::npos) << r;
  EXPECT_NE(r.find("lost_lines=1\n"), std::string::npos) << r;
  EXPECT_NE(r.find("summary_says_incomplete=1\n"), std::string::npos) << r;
  EXPECT_NE(r.find("stats_exit=0\n"), std::string::npos) << r;
  EXPECT_NE(r.find("stats_says_incomplete=1\n"), std::string::npos) << r;
  EXPECT_EQ(r.find("kernels=0\n"), std::string::npos) << r;
  EXPECT_EQ(r.find("lost=0\n"), std::string::npos) << r;
}

}  // namespace
}  // namespace gpuscope::gpu_test
