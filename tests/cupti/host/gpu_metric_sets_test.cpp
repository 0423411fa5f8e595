// The GPU metric sets of `run --gpu-metrics` against CUPTI's PM sampling catalog of GH100
// (H100/H200), GPU-free: every name is one CUPTI lists for PM sampling, every set builds one
// config image (what the injection hands cuptiPmSamplingSetConfig).
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope {
namespace {

using cupti::host::MetricHost;
using cupti::host::ProfilerKind;

std::unique_ptr<MetricHost> PmSamplingHost() {
  StatusOr<std::unique_ptr<MetricHost>> host = MetricHost::Open("GH100", ProfilerKind::kPmSampling);
  EXPECT_TRUE(host.ok()) << host.status().message();
  return host.ok() ? std::move(*host) : nullptr;
}

TEST(GpuMetricSets, EveryNameIsInThePmSamplingCatalogOfGh100) {
  std::unique_ptr<MetricHost> host = PmSamplingHost();
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(host->kind(), ProfilerKind::kPmSampling);
  for (const GpuMetricSet& set : GpuMetricSets()) {
    for (const GpuMetricSpec& metric : set.metrics) {
      Status checked = host->CheckMetric(metric.name);
      EXPECT_TRUE(checked.ok()) << set.name << ": " << checked.message();
      // The unit the set shows is the one CUPTI gives the name (GB/s conversions rely on it).
      EXPECT_EQ(host->Describe(metric.name).unit, metric.unit) << metric.name;
    }
  }
}

TEST(GpuMetricSets, EverySetBuildsOneConfigImage) {
  std::unique_ptr<MetricHost> host = PmSamplingHost();
  ASSERT_NE(host, nullptr);
  for (const GpuMetricSet& set : GpuMetricSets()) {
    std::vector<std::string> names;
    for (const GpuMetricSpec& metric : set.metrics) names.emplace_back(metric.name);
    StatusOr<cupti::host::ConfigImage> config = host->MakeConfig(names);
    ASSERT_TRUE(config.ok()) << set.name << ": " << config.status().message();
    EXPECT_FALSE(config->bytes.empty());
    // PM sampling takes single-pass configs only (cuptiPmSamplingSetConfig: NOT_SUPPORTED).
    StatusOr<std::uint32_t> passes = host->CountPasses(names);
    ASSERT_TRUE(passes.ok()) << set.name << ": " << passes.status().message();
    EXPECT_EQ(*passes, 1u) << set.name;
  }
}

TEST(GpuMetricSets, DefaultSetCoversWhatTheIssueAsksFor) {
  const GpuMetricSet* set = FindGpuMetricSet(kDefaultGpuMetricSet);
  ASSERT_NE(set, nullptr);
  std::set<GpuMetricRole> roles;
  for (const GpuMetricSpec& metric : set->metrics) roles.insert(metric.role);
  for (GpuMetricRole role :
       {GpuMetricRole::kSmActive, GpuMetricRole::kSmIssue, GpuMetricRole::kWarpsInFlight,
        GpuMetricRole::kTensorActive, GpuMetricRole::kDramRead, GpuMetricRole::kDramWrite,
        GpuMetricRole::kPcieRead, GpuMetricRole::kPcieWrite, GpuMetricRole::kNvlinkReceive,
        GpuMetricRole::kNvlinkTransmit}) {
    EXPECT_EQ(roles.count(role), 1u) << static_cast<int>(role);
  }
  EXPECT_EQ(FindGpuMetricSet("nope"), nullptr);
}

// PM sampling's catalog is its own (the host object is opened for CUPTI_PROFILER_TYPE_PM_SAMPLING)
// and knows the *_realtime counters the sets use. (The Range Profiler's catalog of CUPTI 13 lists
// them too, so their presence says nothing about which catalog was opened; the one-pass configs
// of EverySetBuildsOneConfigImage do.)
TEST(GpuMetricSets, PmSamplingKnowsTheRealtimeCounters) {
  std::unique_ptr<MetricHost> pm = PmSamplingHost();
  ASSERT_NE(pm, nullptr);
  EXPECT_EQ(pm->kind(), ProfilerKind::kPmSampling);
  const std::string realtime = "sm__inst_executed_realtime.avg.pct_of_peak_sustained_elapsed";
  EXPECT_TRUE(pm->CheckMetric(realtime).ok());
  EXPECT_FALSE(pm->CheckMetric("sm__inst_executed_realtime.avg.no_such_rollup").ok());
}

}  // namespace
}  // namespace gpuscope
