// Issue 4: the occupancy calculator's block limits equal the ones Nsight Compute reports for
// the same launches (launch__occupancy_limit_*), on the kernels of examples/metrics (register-
// limited, shared-memory and warp-limited, one-block grids).
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "profile_csv.h"
#include "profile_runs.h"

namespace gpuscope::gpu_test {
namespace {

namespace nc = gpuscope::ncu_csv;

constexpr int kProfilerTimeoutSeconds = 540;

// ncu's metric -> the row gpuscope's Occupancy section prints for it.
const std::map<std::string, std::string> kSameValue = {
    {"launch__occupancy_limit_registers", "Block Limit Registers"},
    {"launch__occupancy_limit_shared_mem", "Block Limit Shared Mem"},
    {"launch__occupancy_limit_warps", "Block Limit Warps"},
    {"launch__occupancy_limit_blocks", "Block Limit SM"},
    {"sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy"},
};

std::string MetricList() {
  std::string list;
  for (const auto& [ncu_name, ours] : kSameValue) list += (list.empty() ? "" : ",") + ncu_name;
  return list;
}

TEST(GpuOccupancyVsNcu, BlockLimitsAndTheoreticalOccupancyEqualNsightCompute) {
  const std::string ncu = FindNcu();
  if (ncu.empty()) GTEST_SKIP() << "ncu not found (PATH, /usr/local/cuda/bin, $GPUSCOPE_NCU)";
  ScratchDir dir;
  const std::string program = ExampleBinary("metrics_kernels");
  CommandResult by_ncu = RunCommand({ncu, "--csv", "--page", "raw", "--clock-control", "none",
                                     "--metrics", MetricList(), "-k", "regex:^k_", program},
                                    {}, kProfilerTimeoutSeconds);
  SaveText(dir, "ncu.csv", by_ncu.out);
  ASSERT_EQ(by_ncu.exit_code, 0) << by_ncu.Describe();
  CommandResult ours =
      RunGpuscopeProfile(dir, {"--section", "Occupancy", "--csv", "-k", "regex:^k_"}, {program},
                         kProfilerTimeoutSeconds);
  SaveText(dir, "gpuscope.csv", ours.out);
  ASSERT_EQ(ours.exit_code, 0) << ours.Describe();
  auto ncu_launches = nc::ParseProfileCsv(by_ncu.out);
  auto our_launches = nc::ParseProfileCsv(ours.out);
  ASSERT_TRUE(ncu_launches.ok()) << ncu_launches.status().message();
  ASSERT_TRUE(our_launches.ok()) << our_launches.status().message();
  ASSERT_EQ(ncu_launches->size(), our_launches->size());
  ASSERT_GE(ncu_launches->size(), 10u);
  for (std::size_t i = 0; i < ncu_launches->size(); ++i) {
    const nc::ProfiledLaunch& theirs = (*ncu_launches)[i];
    const nc::ProfiledLaunch& mine = (*our_launches)[i];
    ASSERT_EQ(theirs.function_name, mine.function_name) << "launch " << i;
    for (const auto& [ncu_name, our_row] : kSameValue) {
      auto t = theirs.metrics.find(ncu_name);
      auto m = mine.metrics.find(our_row);
      ASSERT_NE(t, theirs.metrics.end()) << ncu_name;
      ASSERT_NE(m, mine.metrics.end()) << our_row << " of " << mine.function_name;
      ASSERT_TRUE(t->second.number.has_value()) << ncu_name << " = " << t->second.text;
      ASSERT_TRUE(m->second.number.has_value()) << our_row << " = " << m->second.text;
      EXPECT_NEAR(*m->second.number, *t->second.number, 0.01)
          << mine.function_name << " #" << i << ": " << our_row << " vs ncu's " << ncu_name;
    }
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
