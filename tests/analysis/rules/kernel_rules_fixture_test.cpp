// Acceptance of the kernel rules on the planted kernels of examples/metrics, as recorded on
// the H100: each planted problem is the top finding, the healthy kernels get no finding that
// promises 10% or more, and every rule survives missing metrics.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

#include "analysis/metrics/profile_loader.h"
#include "analysis/rules/rule_registry.h"
#include "store/report_reader.h"

namespace gpuscope::analysis {
namespace {

using rules::AllRules;
using rules::Rule;
using rules::RunKernelRules;

class KernelRulesFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto report = store::ReportReader::Open(std::string(GPUSCOPE_TEST_DATA_DIR) +
                                            "/reports/h100_metrics_full.sqlite");
    ASSERT_TRUE(report.ok()) << report.status().message();
    auto loaded = metrics::LoadKernelProfiles(*report.value());
    ASSERT_TRUE(loaded.ok()) << loaded.status().message();
    profiles_ = new std::vector<metrics::KernelProfile>(std::move(loaded.value()));
  }
  static void TearDownTestSuite() { delete profiles_; }

  // The findings of the first profiled launch of `function`.
  static std::vector<Finding> FindingsOf(const std::string& function) {
    for (const metrics::KernelProfile& p : *profiles_) {
      if (p.function_name == function) return RunKernelRules(p);
    }
    ADD_FAILURE() << "no kernel " << function;
    return {};
  }

  static std::vector<metrics::KernelProfile>* profiles_;
};
std::vector<metrics::KernelProfile>* KernelRulesFixture::profiles_ = nullptr;

void ExpectTop(const std::vector<Finding>& findings, const std::string& rule_id) {
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings.front().rule_id, rule_id)
      << findings.front().title << ": " << findings.front().message;
  EXPECT_TRUE(findings.front().speedup_pct.has_value());
  EXPECT_FALSE(findings.front().speedup_formula.empty());
}

// A grid smaller than the GPU is launch-bound only when its launch is as short as the launch
// overhead (k_tiny: 2-3 us); the same grid lasting 282 us is told to spread its work instead.
TEST_F(KernelRulesFixture, SmallGridCallsOnlyAShortLaunchLaunchBound) {
  const metrics::KernelProfile* tiny = nullptr;
  for (const metrics::KernelProfile& p : *profiles_) {
    if (p.function_name == "k_tiny") tiny = &p;
  }
  ASSERT_NE(tiny, nullptr);
  auto small_grid = [](const metrics::KernelProfile& profile) -> std::string {
    for (const Finding& finding : RunKernelRules(profile)) {
      if (finding.rule_id == "small_grid") return finding.message;
    }
    return "no small_grid finding";
  };
  const std::string recorded = small_grid(*tiny);
  EXPECT_NE(recorded.find("of the order of the launch overhead itself: it is launch-bound"),
            std::string::npos)
      << recorded;
  metrics::KernelProfile long_launch = *tiny;
  long_launch.metrics["gpu__time_duration.sum"] = 282'000.0;  // ns
  const std::string slow = small_grid(long_launch);
  EXPECT_NE(slow.find("The launch lasts 282.00 us. Spread the work over more blocks."),
            std::string::npos)
      << slow;
  EXPECT_EQ(slow.find("launch overhead"), std::string::npos) << slow;
}

TEST_F(KernelRulesFixture, PlantedProblemsAreTheTopFinding) {
  ExpectTop(FindingsOf("k_smem_bank_conflicts"), "smem_bank_conflicts");
  ExpectTop(FindingsOf("k_uncoalesced_stride33"), "uncoalesced_global_loads");
  ExpectTop(FindingsOf("k_fp64_accumulator"), "fp64_with_fp32_data");
  ExpectTop(FindingsOf("k_register_heavy"), "theoretical_occupancy");
  ExpectTop(FindingsOf("k_local_spill"), "local_memory_spills");
  ExpectTop(FindingsOf("k_divergent_branches"), "divergent_branches");
  ExpectTop(FindingsOf("k_tiny"), "small_grid");
}

TEST_F(KernelRulesFixture, MessagesQuoteTheKernelsNumbers) {
  const std::vector<Finding> conflicts = FindingsOf("k_smem_bank_conflicts");
  EXPECT_NE(conflicts.front().message.find("32.0-way"), std::string::npos)
      << conflicts.front().message;
  const std::vector<Finding> stride = FindingsOf("k_uncoalesced_stride33");
  EXPECT_NE(stride.front().message.find("only 7.1 of the 32 bytes"), std::string::npos);
  const std::vector<Finding> heavy = FindingsOf("k_register_heavy");
  EXPECT_NE(heavy.front().message.find("limited by the number of registers"), std::string::npos);
  EXPECT_NE(heavy.front().message.find("use at most"), std::string::npos) << heavy.front().message;
}

TEST_F(KernelRulesFixture, HealthyKernelsGetNoBigPromises) {
  for (const std::string name : {"k_saxpy", "k_fma_fp32"}) {
    for (const Finding& f : FindingsOf(name)) {
      if (f.speedup_pct) {
        EXPECT_LT(*f.speedup_pct, 10.0) << name << ": " << f.rule_id;
      }
    }
  }
}

TEST_F(KernelRulesFixture, SolBoundNamesTheRoof) {
  bool saw_high = false;
  for (const Finding& f : FindingsOf("k_fma_fp32")) {
    if (f.rule_id == "sol_bound") saw_high = f.title == "High Throughput";
  }
  EXPECT_TRUE(saw_high);
  // k_saxpy moves DRAM at 83% of the H100's peak: past 80%, ncu's rule says High Throughput
  // and names the memory side.
  bool saw_memory = false;
  for (const Finding& f : FindingsOf("k_saxpy")) {
    if (f.rule_id == "sol_bound") {
      saw_memory = f.title == "High Throughput" && f.message.find("DRAM") != std::string::npos;
    }
  }
  EXPECT_TRUE(saw_memory);
}

TEST_F(KernelRulesFixture, NearTheRoofCapsLatencyFindings) {
  // k_fma_fp32 runs at 94% of the SM roof: nothing that only adds warps may promise more
  // than the 6% left.
  for (const Finding& f : FindingsOf("k_fma_fp32")) {
    if (f.rule_id == "achieved_occupancy" || f.rule_id == "top_stall_reason") {
      ASSERT_TRUE(f.speedup_pct.has_value());
      EXPECT_LE(*f.speedup_pct, 6.0);
    }
  }
}

TEST_F(KernelRulesFixture, FindingsAreSortedBySpeedup) {
  for (const metrics::KernelProfile& p : *profiles_) {
    const std::vector<Finding> findings = RunKernelRules(p);
    for (std::size_t i = 1; i < findings.size(); ++i) {
      EXPECT_GE(findings[i - 1].speedup_pct.value_or(-1), findings[i].speedup_pct.value_or(-1));
    }
  }
}

// Without the Speed Of Light numbers nothing says how busy a kernel is: latency findings
// (occupancy, stalls, eligible warps, tail) must not promise a speedup.
TEST_F(KernelRulesFixture, WithoutSpeedOfLightLatencyFindingsPromiseNothing) {
  for (const metrics::KernelProfile& base : *profiles_) {
    metrics::KernelProfile p = base;
    for (auto it = p.metrics.begin(); it != p.metrics.end();) {
      const bool sol = it->first.find("pct_of_peak_sustained") != std::string::npos;
      it = sol ? p.metrics.erase(it) : std::next(it);
    }
    for (const Finding& f : RunKernelRules(p)) {
      if (f.rule_id == "achieved_occupancy" || f.rule_id == "top_stall_reason" ||
          f.rule_id == "few_eligible_warps" || f.rule_id == "tail_effect") {
        EXPECT_LT(f.speedup_pct.value_or(0), 1.0) << p.function_name << " " << f.rule_id;
      }
    }
  }
}

TEST_F(KernelRulesFixture, MissingMetricsNeverCrash) {
  // Drop each metric in turn from a kernel with many findings: rules stop applying, nothing
  // throws, and no finding has a non-finite speedup.
  metrics::KernelProfile base;
  for (const metrics::KernelProfile& p : *profiles_) {
    if (p.function_name == "k_local_spill") base = p;
  }
  ASSERT_FALSE(base.metrics.empty());
  for (const auto& [name, value] : base.metrics) {
    metrics::KernelProfile p = base;
    p.metrics.erase(name);
    for (const Finding& f : RunKernelRules(p)) {
      if (f.speedup_pct) {
        EXPECT_TRUE(std::isfinite(*f.speedup_pct)) << name;
      }
    }
  }
  metrics::KernelProfile empty = base;
  empty.metrics.clear();
  EXPECT_TRUE(RunKernelRules(empty).empty());
  metrics::KernelProfile untraced = base;
  untraced.grid = {0, 0, 0};
  untraced.block = {0, 0, 0};
  EXPECT_NO_THROW(RunKernelRules(untraced));
}

TEST(RuleRegistry, EveryRuleIsDescribed) {
  std::map<std::string, int> ids;
  for (const Rule& rule : AllRules()) {
    EXPECT_FALSE(rule.id.empty());
    EXPECT_FALSE(rule.section.empty());
    EXPECT_FALSE(rule.checks.empty()) << rule.id;
    EXPECT_NE(rule.evaluate, nullptr) << rule.id;
    if (rule.severity == Severity::kOpt) {
      EXPECT_FALSE(rule.speedup_formula.empty()) << rule.id;
    }
    ++ids[rule.id];
  }
  for (const auto& [id, count] : ids) EXPECT_EQ(count, 1) << id;
  EXPECT_GE(AllRules().size(), 15u);
}

}  // namespace
}  // namespace gpuscope::analysis
