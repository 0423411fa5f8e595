// Rule gpu_metric_stretches on synthetic GPU metric samples written with the real writer: kernels
// that run while SM active is low (a small grid, then a tail) and a kernel that saturates DRAM,
// each cited with its time; a trace whose kernels keep the SMs busy fires nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../support/planted_report.h"
#include "store/testing/devices.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::analysis::testing {
namespace {

using Ids = std::vector<std::string>;

constexpr auto kSm = static_cast<std::uint8_t>(GpuMetricRole::kSmActive);
constexpr auto kRead = static_cast<std::uint8_t>(GpuMetricRole::kDramRead);
constexpr auto kWrite = static_cast<std::uint8_t>(GpuMetricRole::kDramWrite);

class GpuMetricStretches : public ::testing::Test {
 protected:
  // Device 0 is the H200 (4.8 TB/s); samples every 100 us over [from, to) with the values.
  void Samples(ReportBuilder& trace, std::uint64_t from, std::uint64_t to, double sm,
               double read, double write) {
    for (std::uint64_t t = from; t < to; t += 100 * kUs) {
      trace.GpuMetricSample(0, t, 100 * kUs, {sm, read, write});
    }
  }
  void Begin(ReportBuilder& trace) {
    trace.Write(store::testing::H200());
    trace.GpuMetrics(0, {{"SM Active", "%", kSm},
                         {"DRAM Read Bandwidth", "byte/second", kRead},
                         {"DRAM Write Bandwidth", "byte/second", kWrite}});
  }

  ScratchDir dir_;
  std::string path_ = dir_.File("r.sqlite");
};

TEST_F(GpuMetricStretches, KernelsWhileSmsAreIdleAreCitedWithTheirTime) {
  ReportBuilder trace(path_, Planted());
  Begin(trace);
  // 0-10 ms: a busy kernel (95 % SM active); 10-14 ms: a one-block kernel (SM active 1 %);
  // 14-20 ms: a busy kernel whose last 1 ms is a tail at 20 %.
  trace.Kernel(0, 10 * kMs, {.name = "_Z4busyv"});
  std::uint32_t small = trace.Kernel(10 * kMs, 4 * kMs, {.name = "_Z5smallv"});
  trace.Kernel(14 * kMs, 6 * kMs, {.name = "_Z4tailv"});
  Samples(trace, 0, 10 * kMs, 95, 1e11, 1e11);
  Samples(trace, 10 * kMs, 14 * kMs, 1, 1e9, 1e9);
  Samples(trace, 14 * kMs, 19 * kMs, 95, 1e11, 1e11);
  Samples(trace, 19 * kMs, 20 * kMs, 20, 1e10, 1e10);
  ASSERT_TRUE(trace.Close().ok());

  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"gpu_metric_stretches"});
  const Finding& finding = findings[0];
  EXPECT_EQ(finding.time_ns, 5 * kMs);  // 4 ms of the small grid, 1 ms of the tail
  EXPECT_EQ(finding.occurrences, 2u);
  ASSERT_EQ(finding.cited.size(), 2u);
  EXPECT_EQ(finding.cited[0].table, "kernels");
  EXPECT_EQ(finding.cited[0].id, small);
  EXPECT_EQ(finding.cited[0].start, kT0 + 10 * kMs);
  EXPECT_NE(finding.message.find("below 30.0% for 5.0000ms while 2 kernels ran"),
            std::string::npos)
      << finding.message;
  EXPECT_NE(finding.message.find("longest stretch, 4.0000ms from 10.000ms after the start at "
                                 "1.0% SM active, ran mostly small()"),
            std::string::npos)
      << finding.message;
}

TEST_F(GpuMetricStretches, SaturatedDramIsNamed) {
  ReportBuilder trace(path_, Planted());
  Begin(trace);
  trace.Kernel(0, 10 * kMs, {.name = "_Z4copyv"});
  Samples(trace, 0, 10 * kMs, 99, 2.2e12, 2.1e12);  // 4.3 TB/s of 4.8
  ASSERT_TRUE(trace.Close().ok());
  std::vector<Finding> findings = FindingsOf(path_);
  ASSERT_EQ(RuleIds(findings), Ids{"gpu_metric_stretches"});
  EXPECT_EQ(findings[0].title, "DRAM bandwidth saturated");
  EXPECT_EQ(findings[0].time_ns, 10 * kMs);
  EXPECT_NE(findings[0].message.find("at 4300 GB/s, mostly copy()"), std::string::npos)
      << findings[0].message;
}

TEST_F(GpuMetricStretches, BusySmsAndIdleGapsWithoutKernelsFireNothing) {
  ReportBuilder trace(path_, Planted());
  Begin(trace);
  trace.Kernel(0, 10 * kMs, {.name = "_Z4busyv"});
  trace.Kernel(20 * kMs, 10 * kMs, {.name = "_Z4busyv"});
  Samples(trace, 0, 10 * kMs, 97, 1e11, 1e11);
  Samples(trace, 10 * kMs, 20 * kMs, 0, 0, 0);  // idle: no kernel ran (idle_gaps' business)
  Samples(trace, 20 * kMs, 30 * kMs, 97, 1e11, 1e11);
  ASSERT_TRUE(trace.Close().ok());
  for (const std::string& id : RuleIds(FindingsOf(path_))) {
    EXPECT_NE(id, "gpu_metric_stretches");
  }
}

}  // namespace
}  // namespace gpuscope::analysis::testing
