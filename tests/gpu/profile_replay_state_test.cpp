// Kernel replay restores device memory between passes: a program profiled by `gpuscope
// profile` computes exactly what it computes alone. metrics_kernels updates its buffers in
// place (k_saxpy twice: y = a*x + y) and prints a checksum per kernel, so a pass that ran on
// the previous pass's results shows up as a different checksum.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "metrics_kernels.h"
#include "model/overhead_kinds.h"
#include "model/records.h"
#include "profile_runs.h"

namespace gpuscope::gpu_test {
namespace {

namespace mk = gpuscope::examples::metrics;

constexpr int kProfilerTimeoutSeconds = 540;

// How many times gpuscope's progress says it profiled a kernel with this name:
// ==PID== Profiling "k_saxpy" - 0: 0%....50%....100% - 20 passes
int ProfilingLines(const std::string& err, const std::string& name) {
  std::regex line("Profiling \"" + name + "\"");
  return static_cast<int>(
      std::distance(std::sregex_iterator(err.begin(), err.end(), line), std::sregex_iterator()));
}

std::vector<std::string> PlainChecksums() {
  CommandResult plain = RunCommand({ExampleBinary("metrics_kernels")});
  EXPECT_EQ(plain.exit_code, 0) << plain.Describe();
  std::vector<std::string> lines = ChecksumLines(plain.out);
  EXPECT_EQ(lines.size(), mk::kMetricsKernels.size() + 1) << plain.out;
  return lines;
}

TEST(GpuProfileReplayState, OneSaxpyProfiledLeavesEveryChecksumUnchanged) {
  const std::vector<std::string> expected = PlainChecksums();
  ASSERT_FALSE(expected.empty());
  ScratchDir dir;
  CommandResult profiled =
      RunGpuscopeProfile(dir, {"-k", "k_saxpy", "-c", "1"}, {ExampleBinary("metrics_kernels")},
                         kProfilerTimeoutSeconds);
  ASSERT_EQ(profiled.exit_code, 0) << profiled.Describe();
  EXPECT_EQ(ChecksumLines(profiled.out), expected) << profiled.Describe();
  EXPECT_EQ(ProfilingLines(profiled.err, "k_saxpy"), 1) << profiled.err;
  EXPECT_EQ(ProfilingLines(profiled.err, "k_[a-z0-9_]+"), 1)
      << "only k_saxpy, once: " << profiled.err;
}

// gpuscope replays a profiled launch itself before the program's launch runs (issue 12), so the
// program's launch stays in the trace with its own timestamps: every k_saxpy launch is timed,
// the profiled one included, and no kernel lacks its timestamps.
TEST(GpuProfileReplayState, ProfiledLaunchKeepsItsTimestamps) {
  ScratchDir dir;
  CommandResult profiled =
      RunGpuscopeProfile(dir, {"-k", "k_saxpy", "-c", "1"}, {ExampleBinary("metrics_kernels")},
                         kProfilerTimeoutSeconds);
  ASSERT_EQ(profiled.exit_code, 0) << profiled.Describe();
  std::vector<std::string> reports;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sqlite") reports.push_back(entry.path().string());
  }
  ASSERT_EQ(reports.size(), 1u) << profiled.Describe();
  Report report = LoadReport(reports[0]);
  ASSERT_TRUE(report.ok()) << report.load_error;
  int saxpy_launches = 0;
  for (const auto& kernel : mk::kMetricsKernels) {
    if (std::string(kernel.name) == "k_saxpy") saxpy_launches = kernel.launches;
  }
  int timed = 0;
  for (const Kernel& kernel : report.kernels) {
    if (kernel.name.rfind("k_saxpy", 0) != 0) continue;
    EXPECT_GT(kernel.record.start, 0u) << kernel.name;
    EXPECT_GT(kernel.record.end, kernel.record.start) << kernel.name;
    ++timed;
  }
  EXPECT_EQ(timed, saxpy_launches);
  EXPECT_EQ(report.reader->counters().kernels_without_timestamp, 0u);
  EXPECT_EQ(profiled.err.find("no timestamp"), std::string::npos) << profiled.err;

  // The replay is profiler time of its own (an overhead row), no longer inside the launch
  // call's API time: the call that launched the profiled kernel (the last launch call to
  // start before the replay did) now lasts less than the replay.
  std::vector<model::OverheadRecord> replays;
  ASSERT_TRUE(report.reader
                  ->ForEachOverhead([&](const model::OverheadRecord& o) {
                    if (o.overhead_kind == model::kGpuscopeReplayOverheadKind) replays.push_back(o);
                    return true;
                  })
                  .ok());
  ASSERT_EQ(replays.size(), 1u);
  const model::Timestamp replay_ns = replays[0].end - replays[0].start;
  const ApiCall* launch_call = nullptr;
  for (const ApiCall& call : report.api_calls) {
    if (call.nested_in_runtime || call.name.find("Launch") == std::string::npos) continue;
    if (call.record.start > replays[0].start) continue;
    if (launch_call == nullptr || call.record.start > launch_call->record.start) launch_call = &call;
  }
  ASSERT_NE(launch_call, nullptr);
  EXPECT_LT(launch_call->record.end - launch_call->record.start, replay_ns)
      << launch_call->name << " still holds the replay of " << replay_ns << " ns";
}

// --replay-no-restore (issue 12; reference 003's non-overlapping input and output buffers):
// the passes run without saving or restoring device memory. A kernel that reads two buffers
// and writes a third (k_fp64_accumulator) leaves every checksum as it was; the report and its
// page say how it was replayed. k_saxpy, which updates y in place, is
// what the option must not be used for: its checksum changes (the passes ran on their own
// results), which shows that nothing was restored.
TEST(GpuProfileReplayState, NoRestoreSkipsSaveAndRestoreAndSaysSo) {
  const std::vector<std::string> expected = PlainChecksums();
  ASSERT_FALSE(expected.empty());
  ScratchDir dir;
  CommandResult separate = RunGpuscopeProfile(
      dir, {"--replay-no-restore", "-k", "k_fp64_accumulator", "-c", "1"},
      {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  ASSERT_EQ(separate.exit_code, 0) << separate.Describe();
  EXPECT_EQ(ChecksumLines(separate.out), expected) << separate.Describe();
  EXPECT_EQ(ProfilingLines(separate.err, "k_fp64_accumulator"), 1) << separate.err;
  EXPECT_NE(separate.out.find("Replay: kernel replay, L2 flushed before each pass "
                              "(--cache-control all), device memory NOT saved or restored"),
            std::string::npos)
      << separate.out;

  ScratchDir in_place_dir;
  CommandResult in_place =
      RunGpuscopeProfile(in_place_dir, {"--replay-no-restore", "-k", "k_saxpy", "-c", "1"},
                         {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  ASSERT_EQ(in_place.exit_code, 0) << in_place.Describe();
  EXPECT_NE(ChecksumLines(in_place.out), expected)
      << "k_saxpy's passes ran without a restore, so y must have moved on";
}

TEST(GpuProfileReplayState, EveryKernelProfiledWithTheFullSetLeavesEveryChecksumUnchanged) {
  const std::vector<std::string> expected = PlainChecksums();
  ASSERT_FALSE(expected.empty());
  ScratchDir dir;
  CommandResult profiled =
      RunGpuscopeProfile(dir, {"--set", "full", "-k", "regex:^k_"},
                         {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  ASSERT_EQ(profiled.exit_code, 0) << profiled.Describe();
  EXPECT_EQ(ChecksumLines(profiled.out), expected) << profiled.Describe();
  EXPECT_EQ(ProfilingLines(profiled.err, "k_[a-z0-9_]+"), mk::kMetricsKernelLaunches)
      << profiled.err;
}

}  // namespace
}  // namespace gpuscope::gpu_test
