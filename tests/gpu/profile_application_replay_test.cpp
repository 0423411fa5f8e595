// --replay-mode application: the program runs once per pass and the counter data of one launch
// is carried from run to run. Its numbers must agree with kernel replay's for the same launch
// (the instruction count is exact; DRAM traffic and time are measurements) and the program
// must compute what it computes alone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics_kernels.h"
#include "profile_csv.h"
#include "profile_runs.h"

namespace gpuscope::gpu_test {
namespace {

namespace nc = gpuscope::ncu_csv;

constexpr int kProfilerTimeoutSeconds = 540;
// Counters of the second k_saxpy launch, plus the basic set so that it takes several passes.
const std::vector<std::string> kOptions = {
    "--set",     "basic",
    "--metrics", "smsp__inst_executed.sum,dram__bytes_read.sum,gpu__time_duration.sum",
    "-k",        "k_saxpy",
    "-s",        "1",
    "-c",        "1",
    "--csv",     "--page",
    "raw"};

std::map<std::string, double> ValuesOf(const CommandResult& run) {
  std::map<std::string, double> values;
  auto launches = nc::ParseProfileCsv(run.out);
  EXPECT_TRUE(launches.ok()) << launches.status().message();
  if (!launches.ok() || launches->size() != 1) {
    ADD_FAILURE() << "expected one profiled launch: " << run.Describe();
    return values;
  }
  for (const auto& [name, value] : launches->front().metrics) {
    if (value.number) values[name] = *value.number;
  }
  return values;
}

TEST(GpuProfileApplicationReplay, OneLaunchMeasuredAcrossRunsAgreesWithKernelReplay) {
  ScratchDir kernel_dir;
  CommandResult kernel = RunGpuscopeProfile(
      kernel_dir, kOptions, {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  ASSERT_EQ(kernel.exit_code, 0) << kernel.Describe();
  ScratchDir app_dir;
  std::vector<std::string> app_options = kOptions;
  app_options.insert(app_options.begin(), {"--replay-mode", "application"});
  CommandResult application = RunGpuscopeProfile(
      app_dir, app_options, {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  SaveText(app_dir, "application.err", application.err);
  ASSERT_EQ(application.exit_code, 0) << application.Describe();
  // Several runs (one per pass), the last one announced as such.
  EXPECT_NE(application.err.find("Application replay: run 2 of "), std::string::npos)
      << application.err;
  // Every run computed what the program computes alone (the program's output of each run
  // passes through, one block of checksums per run).
  CommandResult plain = RunCommand({ExampleBinary("metrics_kernels")});
  const std::vector<std::string> once = ChecksumLines(plain.out);
  const std::vector<std::string> all_runs = ChecksumLines(application.out);
  ASSERT_FALSE(once.empty());
  ASSERT_EQ(all_runs.size() % once.size(), 0u) << application.out;
  EXPECT_GE(all_runs.size() / once.size(), 2u);
  for (std::size_t i = 0; i < all_runs.size(); ++i) {
    EXPECT_EQ(all_runs[i], once[i % once.size()]) << "run " << i / once.size() + 1;
  }

  std::map<std::string, double> by_kernel = ValuesOf(kernel);
  std::map<std::string, double> by_application = ValuesOf(application);
  ASSERT_TRUE(by_application.count("smsp__inst_executed.sum")) << application.out;
  // Known to fail on the H200 (2026-11-21): 69,206,056 instructions by application replay
  // against 52,428,800 by kernel replay and by ncu (the CLI warns about it).
  EXPECT_EQ(by_application["smsp__inst_executed.sum"], by_kernel["smsp__inst_executed.sum"]);
  EXPECT_NEAR(by_application["dram__bytes_read.sum"], by_kernel["dram__bytes_read.sum"],
              0.05 * by_kernel["dram__bytes_read.sum"]);
  EXPECT_NEAR(by_application["gpu__time_duration.sum"], by_kernel["gpu__time_duration.sum"],
              0.10 * by_kernel["gpu__time_duration.sum"]);
}

}  // namespace
}  // namespace gpuscope::gpu_test
