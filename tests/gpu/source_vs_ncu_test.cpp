// Source counters against Nsight Compute's source page on the same launches (issue 11,
// acceptance (a)): eight kernels of metrics_kernels of different character are profiled by
// both tools with the full set; every SASS instruction of every launch must have the same
// executed, thread, predicated-on, global-sector and shared-wavefront counts within 1% (exact
// where either is zero), and gpuscope's per-instruction executed counts must add up to the
// kernel-level smsp__inst_executed.sum of the same report. Both source pages and the list of
// differences are kept in the scratch directory when the test fails.
// Needs ncu (PATH, /usr/local/cuda/bin or $GPUSCOPE_NCU): without it the test is skipped.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "metrics_kernels.h"
#include "profile_csv.h"
#include "profile_runs.h"
#include "source_comparison.h"
#include "source_csv.h"

namespace gpuscope::gpu_test {
namespace {

namespace mk = gpuscope::examples::metrics;
namespace nc = gpuscope::ncu_csv;

constexpr int kProfilerTimeoutSeconds = 540;
constexpr double kTolerance = 0.01;  // the 1% per instruction

// The kernels compared, with the column that shows their character (it must have been
// compared on at least one instruction, non-zero in both tools).
struct ComparedKernel {
  const char* name;
  const char* telling_column;
};
constexpr ComparedKernel kKernels[] = {
    {"k_saxpy", "L2 Theoretical Sectors Global"},                 // coalesced loads and stores
    {"k_fma_fp32", "Thread Instructions Executed"},               // FFMA loop
    {"k_smem_bank_conflicts", "L1 Wavefronts Shared"},            // 32-way shared accesses
    {"k_uncoalesced_stride33", "L2 Theoretical Sectors Global"},  // a sector per 4 bytes
    {"k_dfma_fp64", "Thread Instructions Executed"},              // DFMA loop
    {"k_divergent_branches", "Predicated-On Thread Instructions Executed"},  // half warps
    {"k_local_spill", "Instructions Executed"},               // local loads and stores
    {"k_fp64_accumulator", "L2 Theoretical Sectors Global"},  // bounds checks, FP64 adds
};

const std::vector<std::string> kColumns = {"Instructions Executed",
                                           "Thread Instructions Executed",
                                           "Predicated-On Thread Instructions Executed",
                                           "L2 Theoretical Sectors Global",
                                           "L2 Theoretical Sectors Global Ideal",
                                           "L1 Wavefronts Shared",
                                           "L1 Wavefronts Shared Ideal"};

std::string KernelRegex() {
  std::string regex = "regex:^(";
  for (const ComparedKernel& kernel : kKernels) {
    if (regex.back() != '(') regex += '|';
    regex += kernel.name;
  }
  return regex + ")$";
}

int LaunchesOf(const std::string& name) {
  for (const auto& kernel : mk::kMetricsKernels) {
    if (kernel.name == name) return kernel.launches;
  }
  return 0;
}

std::string OnlyReport(const ScratchDir& dir) {
  std::string report;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sqlite") report = entry.path();
  }
  return report;
}

TEST(GpuSourceVsNcu, EveryInstructionOfEightKernelsWithinOnePercent) {
  const std::string ncu = FindNcu();
  if (ncu.empty()) GTEST_SKIP() << "ncu not found (PATH, /usr/local/cuda/bin, $GPUSCOPE_NCU)";
  ScratchDir dir;
  const std::string program = ExampleBinary("metrics_kernels");
  const std::string kernels = KernelRegex();

  // Nsight Compute: the full set with the source page, then the page as CSV.
  const std::string ncu_report = dir.path() + "/ncu";
  CommandResult by_ncu =
      RunCommand({ncu, "--set", "full", "--import-source", "yes", "--clock-control", "none", "-k",
                  kernels, "-f", "-o", ncu_report, program},
                 {}, kProfilerTimeoutSeconds);
  SaveText(dir, "ncu.stderr", by_ncu.err);
  ASSERT_EQ(by_ncu.exit_code, 0) << by_ncu.Describe();
  CommandResult ncu_page = RunCommand({ncu, "--import", ncu_report + ".ncu-rep", "--page", "source",
                                       "--csv", "--print-source", "sass"});
  SaveText(dir, "ncu_source.csv", ncu_page.out);
  ASSERT_EQ(ncu_page.exit_code, 0) << ncu_page.Describe();

  // gpuscope: the same launches, then its source page and its kernel-level metrics.
  CommandResult by_gpuscope =
      RunGpuscopeProfile(dir, {"--set", "full", "-k", kernels}, {program}, kProfilerTimeoutSeconds);
  SaveText(dir, "gpuscope.stderr", by_gpuscope.err);
  ASSERT_EQ(by_gpuscope.exit_code, 0) << by_gpuscope.Describe();
  const std::string report = OnlyReport(dir);
  ASSERT_FALSE(report.empty()) << "no report in " << dir.path();
  CommandResult gpuscope_page =
      RunCommand({GpuscopeBinary(), "source", report, "--csv", "--print-source", "sass"});
  SaveText(dir, "gpuscope_source.csv", gpuscope_page.out);
  ASSERT_EQ(gpuscope_page.exit_code, 0) << gpuscope_page.Describe();
  CommandResult raw = RunCommand({GpuscopeBinary(), "stats", report, "--page", "raw", "--csv"});
  SaveText(dir, "gpuscope_raw.csv", raw.out);
  ASSERT_EQ(raw.exit_code, 0) << raw.Describe();

  auto ncu_functions = nc::ParseNcuSourcePage(ncu_page.out);
  ASSERT_TRUE(ncu_functions.ok()) << "ncu's page: " << ncu_functions.status().message();
  *ncu_functions = nc::CollapseRepeatedPages(std::move(*ncu_functions));
  auto gpuscope_functions = nc::ParseGpuscopeSourceCsv(gpuscope_page.out);
  ASSERT_TRUE(gpuscope_functions.ok())
      << "gpuscope's page: " << gpuscope_functions.status().message();
  auto launches = nc::ParseProfileCsv(raw.out);
  ASSERT_TRUE(launches.ok()) << "gpuscope's raw page: " << launches.status().message();

  const auto ncu_by_launch = nc::ByLaunch(*ncu_functions);
  const auto gpuscope_by_launch = nc::ByLaunch(*gpuscope_functions);
  const auto metrics_by_launch = nc::ByLaunch(*launches);
  std::string problems;
  for (const ComparedKernel& kernel : kKernels) {
    const int launch_count = LaunchesOf(kernel.name);
    ASSERT_GT(launch_count, 0) << kernel.name << " is not in metrics_kernels.h";
    size_t telling = 0;
    for (int launch = 0; launch < launch_count; ++launch) {
      const nc::LaunchKey key{kernel.name, launch};
      const std::string where = std::string(kernel.name) + " launch " + std::to_string(launch);
      auto ncu_function = ncu_by_launch.find(key);
      auto gpuscope_function = gpuscope_by_launch.find(key);
      if (ncu_function == ncu_by_launch.end() || gpuscope_function == gpuscope_by_launch.end()) {
        ADD_FAILURE() << where << ": on ncu's page " << (ncu_function != ncu_by_launch.end())
                      << ", on gpuscope's " << (gpuscope_function != gpuscope_by_launch.end());
        continue;
      }
      nc::SourceComparison comparison = nc::CompareSourceFunctions(
          *ncu_function->second, *gpuscope_function->second, kColumns, kTolerance);
      std::cout << where << ": " << comparison.matched_instructions << " instructions, "
                << comparison.values_compared << " values, " << comparison.problems.size()
                << " differences\n";
      EXPECT_GT(comparison.matched_instructions, 0u) << where;
      for (const std::string& problem : comparison.problems)
        problems += where + ": " + problem + "\n";
      EXPECT_TRUE(comparison.ok()) << where << ": " << comparison.problems.size()
                                   << " differences, the first: " << comparison.problems.front();
      telling += comparison.nonzero_compared[kernel.telling_column];

      // The instructions add up to the kernel: smsp__inst_executed.sum of the same launch.
      auto metrics = metrics_by_launch.find(key);
      if (metrics == metrics_by_launch.end()) {
        ADD_FAILURE() << where << " is not on gpuscope's raw page";
        continue;
      }
      auto kernel_level = metrics->second->metrics.find("smsp__inst_executed.sum");
      ASSERT_NE(kernel_level, metrics->second->metrics.end()) << where;
      ASSERT_TRUE(kernel_level->second.number) << where << ": " << kernel_level->second.text;
      const double summed = nc::SassColumnSum(*gpuscope_function->second, "Instructions Executed");
      EXPECT_TRUE(nc::CountsAgree(*kernel_level->second.number, summed, kTolerance))
          << where << ": instructions sum to " << summed << ", smsp__inst_executed.sum is "
          << *kernel_level->second.number;
    }
    EXPECT_GT(telling, 0u) << kernel.name << ": no instruction had a non-zero \""
                           << kernel.telling_column << "\" in both tools";
  }
  // Only the selected launches, on both pages.
  int expected_launches = 0;
  for (const ComparedKernel& kernel : kKernels) expected_launches += LaunchesOf(kernel.name);
  EXPECT_EQ(ncu_functions->size(), static_cast<size_t>(expected_launches));
  EXPECT_EQ(gpuscope_functions->size(), static_cast<size_t>(expected_launches));
  SaveText(dir, "differences.txt", problems);
}

}  // namespace
}  // namespace gpuscope::gpu_test
