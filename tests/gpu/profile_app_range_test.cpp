// --replay-mode app-range (issue 12): a range of the program measured as one result, the
// program run once per pass. range_kernels (examples/) holds a cudaProfilerStart/Stop range of
// 3 dependent launches and an NVTX push/pop range "dependent_steps" of 4. The instruction count
// of each range must equal the sum of its launches' counts measured one by one by kernel
// replay (smsp__inst_executed.sum is exact), every run must compute what the program computes
// alone, and, where ncu exists, `ncu --replay-mode app-range --clock-control none` must agree.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "expected_counts.h"
#include "profile_csv.h"
#include "profile_runs.h"

namespace gpuscope::gpu_test {
namespace {

namespace nc = gpuscope::ncu_csv;
namespace ex = gpuscope::examples;

constexpr int kProfilerTimeoutSeconds = 540;
constexpr const char* kInstructions = "smsp__inst_executed.sum";
// Several passes, so that the program really runs more than once.
const std::vector<std::string> kMetricOptions = {
    "--set", "basic", "--metrics", kInstructions, "--csv", "--page", "raw"};

StatusOr<std::vector<nc::ProfiledLaunch>> ParseEitherStream(const CommandResult& result) {
  auto launches = nc::ParseProfileCsv(result.out);
  if (launches.ok()) return launches;
  auto from_stderr = nc::ParseProfileCsv(result.err);
  return from_stderr.ok() ? from_stderr : launches;
}

double InstructionsOf(const nc::ProfiledLaunch& launch) {
  auto found = launch.metrics.find(kInstructions);
  if (found == launch.metrics.end() || !found->second.number) {
    ADD_FAILURE() << "no " << kInstructions << " for " << launch.kernel_name;
    return -1;
  }
  return *found->second.number;
}

// Every launch of the program by kernel replay, in launch order.
std::vector<double> KernelReplayCounts(const ScratchDir& dir) {
  std::vector<std::string> options = kMetricOptions;
  CommandResult run = RunGpuscopeProfile(dir, options, {ExampleBinary("range_kernels")},
                                         kProfilerTimeoutSeconds);
  SaveText(dir, "kernel.err", run.err);
  EXPECT_EQ(run.exit_code, 0) << run.Describe();
  auto launches = ParseEitherStream(run);
  EXPECT_TRUE(launches.ok()) << launches.status().message();
  std::vector<double> counts;
  if (launches.ok()) {
    for (const auto& launch : *launches) counts.push_back(InstructionsOf(launch));
  }
  return counts;
}

// The one range an app-range run measured.
std::optional<nc::ProfiledLaunch> RangeOf(const ScratchDir& dir,
                                          const std::vector<std::string>& range_options,
                                          const std::vector<std::string>& program_checksums) {
  std::vector<std::string> options = {"--replay-mode", "app-range", "-c", "1"};
  options.insert(options.end(), range_options.begin(), range_options.end());
  options.insert(options.end(), kMetricOptions.begin(), kMetricOptions.end());
  CommandResult run = RunGpuscopeProfile(dir, options, {ExampleBinary("range_kernels")},
                                         kProfilerTimeoutSeconds);
  SaveText(dir, "app-range.err", run.err);
  SaveText(dir, "app-range.out", run.out);
  EXPECT_EQ(run.exit_code, 0) << run.Describe();
  EXPECT_NE(run.err.find("Application replay: run 2 of "), std::string::npos) << run.err;
  // Every run computed what the program computes alone.
  const std::vector<std::string> all_runs = ChecksumLines(run.out);
  EXPECT_GE(all_runs.size(), 2u) << run.out;
  for (const std::string& line : all_runs) EXPECT_EQ(line, program_checksums.front());
  auto launches = ParseEitherStream(run);
  EXPECT_TRUE(launches.ok()) << launches.status().message();
  if (!launches.ok() || launches->size() != 1) {
    ADD_FAILURE() << "expected one range: " << run.Describe();
    return std::nullopt;
  }
  return launches->front();
}

double Sum(const std::vector<double>& counts, std::size_t first, std::size_t count) {
  double sum = 0;
  for (std::size_t i = first; i < first + count && i < counts.size(); ++i) sum += counts[i];
  return sum;
}

TEST(GpuProfileAppRange, EachRangeCountsExactlyTheInstructionsOfItsKernels) {
  CommandResult plain = RunCommand({ExampleBinary("range_kernels")});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  const std::vector<std::string> checksums = ChecksumLines(plain.out);
  ASSERT_EQ(checksums.size(), 1u) << plain.out;

  ScratchDir kernel_dir;
  const std::vector<double> counts = KernelReplayCounts(kernel_dir);
  const std::size_t launches = 1 + ex::kRangeProfilerKernels + ex::kRangeNvtxKernels + 1;
  ASSERT_EQ(counts.size(), launches);
  const double profiler_range_sum = Sum(counts, 1, ex::kRangeProfilerKernels);
  const double nvtx_range_sum = Sum(counts, 1 + ex::kRangeProfilerKernels, ex::kRangeNvtxKernels);

  ScratchDir profiler_dir;
  auto profiler_range = RangeOf(profiler_dir, {}, checksums);
  ASSERT_TRUE(profiler_range.has_value());
  EXPECT_EQ(profiler_range->kernel_name, "cudaProfilerStart/Stop range 0");
  EXPECT_EQ(profiler_range->grid_size, "");  // a range has no launch configuration
  EXPECT_EQ(InstructionsOf(*profiler_range), profiler_range_sum);

  ScratchDir nvtx_dir;
  auto nvtx_range =
      RangeOf(nvtx_dir, {"--nvtx-include", std::string(ex::kRangeNvtxName) + "/"}, checksums);
  ASSERT_TRUE(nvtx_range.has_value());
  EXPECT_EQ(nvtx_range->kernel_name, std::string(ex::kRangeNvtxName));
  EXPECT_EQ(InstructionsOf(*nvtx_range), nvtx_range_sum);

  // The details page names the range as ncu does, with the launches it held.
  std::string report;
  for (const auto& entry : std::filesystem::directory_iterator(profiler_dir.path())) {
    if (entry.path().extension() == ".sqlite") report = entry.path().string();
  }
  ASSERT_FALSE(report.empty());
  CommandResult details = RunCommand({GpuscopeBinary(), "stats", "--page", "details", report});
  EXPECT_EQ(details.exit_code, 0) << details.Describe();
  EXPECT_NE(details.out.find("Range: cudaProfilerStart/Stop range 0 (" +
                             std::to_string(ex::kRangeProfilerKernels) + " kernels)"),
            std::string::npos)
      << details.out;
}

// ncu's own application range replay of the same range, where ncu exists: the same count.
TEST(GpuProfileAppRange, AgreesWithNcuAppRange) {
  const std::string ncu = FindNcu();
  if (ncu.empty()) GTEST_SKIP() << "ncu not found (PATH, /usr/local/cuda/bin, $GPUSCOPE_NCU)";
  CommandResult plain = RunCommand({ExampleBinary("range_kernels")});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  const std::vector<std::string> checksums = ChecksumLines(plain.out);
  ScratchDir dir;
  CommandResult by_ncu = RunCommand({ncu, "--replay-mode", "app-range", "--clock-control", "none",
                                     "--csv", "--page", "raw", "--print-units", "base",
                                     "--metrics", kInstructions, "-c", "1",
                                     ExampleBinary("range_kernels")},
                                    {}, kProfilerTimeoutSeconds);
  SaveText(dir, "ncu.out", by_ncu.out);
  SaveText(dir, "ncu.err", by_ncu.err);
  ASSERT_EQ(by_ncu.exit_code, 0) << by_ncu.Describe();
  auto ncu_ranges = ParseEitherStream(by_ncu);
  ASSERT_TRUE(ncu_ranges.ok()) << ncu_ranges.status().message() << "\n" << by_ncu.out;
  ASSERT_EQ(ncu_ranges->size(), 1u) << by_ncu.out;
  auto ours = RangeOf(dir, {}, checksums);
  ASSERT_TRUE(ours.has_value());
  EXPECT_EQ(InstructionsOf(*ours), InstructionsOf(ncu_ranges->front()));
}

}  // namespace
}  // namespace gpuscope::gpu_test
