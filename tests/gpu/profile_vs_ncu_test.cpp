// `gpuscope profile` against Nsight Compute on the same launches (issues 3 and 12, "Right
// numbers"): both profile every k_* launch of metrics_kernels (ten kernels of different
// character, fourteen launches) with the same metric list, in raw CSV, once with ncu's default
// cache control (L2 flushed before each pass: `all`, gpuscope's default too) and once with
// `--cache-control none` on both sides; the launches are matched by kernel name and launch
// order. Issue 12's bar, against ncu's default: at least 98% of all values within the issue-3
// tolerances (tests/ncu_csv/metric_tolerance.h), and every DRAM and L2 byte count within 5%;
// with none on both sides the launches must match and the table is printed. The whole
// table of ratios is printed, pass or fail, and the two CSV files and the table are kept in
// the scratch directory when the test fails.
// Needs ncu (PATH, /usr/local/cuda/bin or $GPUSCOPE_NCU): without it the test is skipped.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "launch_comparison.h"
#include "metrics_kernels.h"
#include "profile_csv.h"
#include "profile_runs.h"
#include "profile_vs_ncu_metrics.h"

namespace gpuscope::gpu_test {
namespace {

namespace mk = gpuscope::examples::metrics;
namespace nc = gpuscope::ncu_csv;

constexpr int kProfilerTimeoutSeconds = 540;

std::string MetricList() {
  std::string list;
  for (auto name : kProfileComparedMetrics) {
    if (!list.empty()) list += ',';
    list += name;
  }
  return list;
}

// The CSV table is on stdout for ncu; gpuscope's may be on either stream.
StatusOr<std::vector<nc::ProfiledLaunch>> ParseEitherStream(const CommandResult& result) {
  auto launches = nc::ParseProfileCsv(result.out);
  if (launches.ok()) return launches;
  auto from_stderr = nc::ParseProfileCsv(result.err);
  return from_stderr.ok() ? from_stderr : launches;
}

// Each kernel of metrics_kernels.h, as often as the program launches it.
void ExpectEveryLaunch(const std::vector<nc::ProfiledLaunch>& launches, const char* tool) {
  std::map<std::string, int> counts;
  for (const auto& launch : launches) ++counts[launch.function_name];
  std::map<std::string, int> expected;
  for (const auto& kernel : mk::kMetricsKernels)
    expected[std::string(kernel.name)] = kernel.launches;
  EXPECT_EQ(counts, expected) << tool << " did not profile exactly the k_* launches";
}

// Tolerances of the issue, plus floors where a value is too small for a relative rule:
// the cache flush before each pass leaves a few KiB of DRAM traffic that neither tool
// controls, and a stall ratio under 0.05 warps per issued instruction is noise.
nc::Tolerances ComparisonTolerances() {
  nc::Tolerances tolerances;
  tolerances.other.absolute = 0.05;
  tolerances.by_prefix.push_back({"dram__bytes", nc::Tolerance{0.01, 8192}});
  tolerances.by_prefix.push_back({"dram__sectors", nc::Tolerance{0.01, 256}});
  return tolerances;
}

// DRAM and L2 byte counts (dram__bytes*, lts__t_bytes*, their sectors): the values a user of a
// memory-bound kernel reads first. Rates and percentages derived from them are not counts.
bool IsCacheByteCount(const std::string& metric) {
  const bool memory = metric.rfind("dram__", 0) == 0 || metric.rfind("lts__t_", 0) == 0;
  const bool count = metric.find("bytes") != std::string::npos ||
                     metric.find("sectors") != std::string::npos;
  const bool derived = metric.find("per_second") != std::string::npos ||
                       metric.find("pct") != std::string::npos ||
                       metric.find("peak") != std::string::npos ||
                       metric.find("ratio") != std::string::npos;
  return memory && count && !derived;
}

class GpuProfileVsNcu : public ::testing::TestWithParam<const char*> {};

TEST_P(GpuProfileVsNcu, KernelsAndMetricsWithinTheIssuesTolerances) {
  const std::string cache_control = GetParam();
  const std::string ncu = FindNcu();
  if (ncu.empty()) GTEST_SKIP() << "ncu not found (PATH, /usr/local/cuda/bin, $GPUSCOPE_NCU)";
  ScratchDir dir;
  const std::string program = ExampleBinary("metrics_kernels");
  const std::string metrics = MetricList();

  CommandResult plain = RunCommand({program});
  ASSERT_EQ(plain.exit_code, 0) << plain.Describe();
  const std::vector<std::string> checksums = ChecksumLines(plain.out);
  ASSERT_EQ(checksums.size(), mk::kMetricsKernels.size() + 1) << plain.out;

  CommandResult by_ncu =
      RunCommand({ncu, "--csv", "--page", "raw", "--print-units", "base", "--clock-control", "none",
                  "--cache-control", cache_control, "--metrics", metrics, "-k", "regex:^k_",
                  program},
                 {}, kProfilerTimeoutSeconds);
  SaveText(dir, "ncu.csv", by_ncu.out);
  SaveText(dir, "ncu.stderr", by_ncu.err);
  ASSERT_EQ(by_ncu.exit_code, 0) << by_ncu.Describe();

  CommandResult by_gpuscope =
      RunGpuscopeProfile(dir,
                         {"--csv", "--page", "raw", "--cache-control", cache_control, "--metrics",
                          metrics, "-k", "regex:^k_"},
                         {program}, kProfilerTimeoutSeconds);
  SaveText(dir, "gpuscope.csv", by_gpuscope.out);
  SaveText(dir, "gpuscope.stderr", by_gpuscope.err);
  ASSERT_EQ(by_gpuscope.exit_code, 0) << by_gpuscope.Describe();

  // Both profilers restored device memory between passes: the program's results are the
  // unprofiled run's.
  EXPECT_EQ(ChecksumLines(by_ncu.out), checksums) << "under ncu";
  EXPECT_EQ(ChecksumLines(by_gpuscope.out), checksums) << "under gpuscope";

  auto ncu_launches = ParseEitherStream(by_ncu);
  ASSERT_TRUE(ncu_launches.ok()) << "ncu's CSV: " << ncu_launches.status().message();
  auto gpuscope_launches = ParseEitherStream(by_gpuscope);
  ASSERT_TRUE(gpuscope_launches.ok()) << "gpuscope's CSV: " << gpuscope_launches.status().message();
  ExpectEveryLaunch(*ncu_launches, "ncu");
  ExpectEveryLaunch(*gpuscope_launches, "gpuscope");
  // Every launch was selected, so the n-th profiled launch of a name is its n-th launch.
  std::map<std::string, long> ordinal;
  for (const auto& launch : *gpuscope_launches) {
    EXPECT_EQ(launch.invocation, ordinal[launch.function_name]++)
        << "Invocation of " << launch.function_name << " (ID " << launch.id << ")";
  }

  std::vector<std::string> names(kProfileComparedMetrics.begin(), kProfileComparedMetrics.end());
  nc::Comparison comparison =
      nc::CompareLaunches(*ncu_launches, *gpuscope_launches, names, ComparisonTolerances());
  const std::string table = nc::FormatComparison(comparison);
  SaveText(dir, "comparison.txt", table);
  std::cout << table;
  EXPECT_EQ(comparison.matched_launches, mk::kMetricsKernelLaunches);
  EXPECT_EQ(comparison.Count(nc::Verdict::kMissing), 0);
  EXPECT_TRUE(comparison.launch_problems.empty());
  const int compared = comparison.Count(nc::Verdict::kPass) + comparison.Count(nc::Verdict::kFail);
  ASSERT_GT(compared, 0);
  const double share = static_cast<double>(comparison.Count(nc::Verdict::kPass)) / compared;
  std::cout << "cache control " << cache_control << ": " << comparison.Count(nc::Verdict::kPass)
            << " of " << compared << " values within the tolerances (" << share * 100 << "%)\n";
  // Issue 12 holds gpuscope to ncu's defaults; the comparison with none on both sides is kept
  // and printed (gpuscope then uses CUPTI's kernel replay, whose cache state differs from ncu's).
  if (cache_control != std::string("all")) return;
  // The 98% goal and the byte counts below belong to the kernel-profiling issue (issue 31,
  // "Kernel profiling at Nsight Compute's numbers"): while it is open this test may fail here,
  // and says so.
  EXPECT_GE(share, 0.98) << "see the table above (FAIL lines); the 98% goal is the open "
                            "kernel-profiling issue's (issue 31), not a regression of collection";
  int byte_counts = 0;
  for (const nc::MetricComparison& value : comparison.metrics) {
    if (!IsCacheByteCount(value.metric) || !value.reference || !value.candidate) continue;
    ++byte_counts;
    const double reference = *value.reference;
    // The floors of ComparisonTolerances: a few KiB of traffic neither tool controls.
    const double floor = value.metric.find("sectors") != std::string::npos ? 256.0 : 8192.0;
    const double allowed = std::max(0.05 * std::abs(reference), floor);
    EXPECT_LE(std::abs(*value.candidate - reference), allowed)
        << value.kernel << " #" << value.ordinal << " " << value.metric << ": gpuscope "
        << *value.candidate << ", ncu " << reference << " (cache control " << cache_control
        << "; within 5% is the open kernel-profiling issue's goal (issue 31))";
  }
  EXPECT_GT(byte_counts, 0) << "no DRAM/L2 byte count was compared";
}

// `all` first: ncu's default, and gpuscope's.
INSTANTIATE_TEST_SUITE_P(CacheControl, GpuProfileVsNcu, ::testing::Values("all", "none"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace gpuscope::gpu_test
