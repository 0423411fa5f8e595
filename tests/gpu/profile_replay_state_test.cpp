// Kernel replay restores device memory between passes: a program profiled by `gpuscope
// profile` computes exactly what it computes alone. metrics_kernels updates its buffers in
// place (k_saxpy twice: y = a*x + y) and prints a checksum per kernel, so a pass that ran on
// the previous pass's results shows up as a different checksum.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "metrics_kernels.h"
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
