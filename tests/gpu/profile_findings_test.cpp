// Issue 4 on the GPU: profile the planted kernels of examples/metrics live, and read the
// findings `gpuscope profile` stored in the report (kernel_findings): each planted problem is
// the top finding with its cause, and the healthy kernels get no finding that promises 10% or
// more. (tests/analysis/rules checks the same on the recorded report; this run shows it holds on a
// fresh measurement too, through the whole profile -> evaluate -> store path.)
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "profile_runs.h"
#include "store/profile_store.h"
#include "store/report_reader.h"

namespace gpuscope::gpu_test {
namespace {

constexpr int kProfilerTimeoutSeconds = 540;

// The stored findings of the first profiled launch of each kernel, by function name.
std::map<std::string, std::vector<store::StoredFinding>> FindingsByKernel(const std::string& path) {
  std::map<std::string, std::vector<store::StoredFinding>> by_kernel;
  auto report = store::ReportReader::Open(path);
  EXPECT_TRUE(report.ok()) << report.status().message();
  if (!report.ok()) return by_kernel;
  auto profiles = store::ReadProfiledKernels(**report);
  auto findings = store::ReadKernelFindings(**report);
  EXPECT_TRUE(profiles.ok() && findings.ok());
  if (!profiles.ok() || !findings.ok()) return by_kernel;
  for (const store::StoredProfile& profile : *profiles) {
    const std::string name = profile.demangled_name.substr(0, profile.demangled_name.find('('));
    if (by_kernel.count(name) != 0) continue;
    by_kernel[name] = (*findings)[profile.id];
  }
  return by_kernel;
}

TEST(GpuProfileFindings, PlantedProblemsAreTheTopFindingAndHealthyKernelsGetNoBigPromise) {
  ScratchDir dir;
  CommandResult run =
      RunGpuscopeProfile(dir, {"--set", "full", "-k", "regex:^k_", "-q"},
                         {ExampleBinary("metrics_kernels")}, kProfilerTimeoutSeconds);
  SaveText(dir, "profile.out", run.out);
  SaveText(dir, "profile.err", run.err);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  std::string report;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    if (entry.path().extension() == ".sqlite") report = entry.path();
  }
  ASSERT_FALSE(report.empty()) << "no report in " << dir.path();
  auto findings = FindingsByKernel(report);

  const std::map<std::string, std::string> planted = {
      {"k_smem_bank_conflicts", "smem_bank_conflicts"},
      {"k_uncoalesced_stride33", "uncoalesced_global_loads"},
      {"k_fp64_accumulator", "fp64_with_fp32_data"},
      {"k_register_heavy", "theoretical_occupancy"},
      {"k_local_spill", "local_memory_spills"},
      {"k_divergent_branches", "divergent_branches"},
      {"k_tiny", "small_grid"},
  };
  for (const auto& [kernel, rule] : planted) {
    ASSERT_FALSE(findings[kernel].empty()) << kernel << " has no finding";
    const store::StoredFinding& top = findings[kernel].front();
    EXPECT_EQ(top.rule_id, rule) << kernel << ": " << top.title << ": " << top.message;
    EXPECT_TRUE(top.speedup_pct.has_value()) << kernel;
  }
  for (const char* healthy : {"k_saxpy", "k_fma_fp32"}) {
    for (const store::StoredFinding& finding : findings[healthy]) {
      EXPECT_LT(finding.speedup_pct.value_or(0), 10.0)
          << healthy << ": " << finding.title << ": " << finding.message;
    }
  }
}

}  // namespace
}  // namespace gpuscope::gpu_test
