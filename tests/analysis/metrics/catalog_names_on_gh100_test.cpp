// Every metric name the section catalog asks for, checked on GH100 by CUPTI's Profiler Host
// API (no GPU needed): each name on its own, and every set as one config image, since one
// name CUPTI cannot schedule fails a whole collection.
#include <gtest/gtest.h>

#include "analysis/metrics/section_catalog.h"
#include "cupti/host/metric_host.h"

namespace gpuscope::analysis::metrics {
namespace {

std::unique_ptr<cupti::host::MetricHost> OpenGh100() {
  auto host = cupti::host::MetricHost::Open("GH100");
  EXPECT_TRUE(host.ok()) << host.status().message();
  return host.ok() ? std::move(host.value()) : nullptr;
}

TEST(CatalogOnGh100, EveryNameIsValid) {
  auto host = OpenGh100();
  ASSERT_NE(host, nullptr);
  const auto names = MetricsToCollect(SectionsOfSet("full").value(), {});
  ASSERT_GT(names.size(), 137u);
  for (const std::string& name : names) {
    const Status status = host->CheckMetric(name);
    EXPECT_TRUE(status.ok()) << status.message();
  }
}

TEST(CatalogOnGh100, EverySetAndSectionIsOneConfigImage) {
  auto host = OpenGh100();
  ASSERT_NE(host, nullptr);
  for (const std::string& set : AllSetNames()) {
    const auto passes = host->CountPasses(MetricsToCollect(SectionsOfSet(set).value(), {}));
    ASSERT_TRUE(passes.ok()) << set << ": " << passes.status().message();
    EXPECT_GT(passes.value(), 0u) << set;
  }
  for (const Section& section : AllSections()) {
    if (SectionMetricNames(section).empty()) continue;  // LaunchStats: launch fields only
    const auto passes = host->CountPasses(SectionMetricNames(section));
    EXPECT_TRUE(passes.ok()) << section.identifier << ": " << passes.status().message();
  }
}

TEST(CatalogOnGh100, OptionalFilterKeepsWhatTheChipHas) {
  auto host = OpenGh100();
  ASSERT_NE(host, nullptr);
  const auto full = SectionsOfSet("full").value();
  const auto filtered = MetricsToCollect(
      full, {}, [&](std::string_view name) { return host->CheckMetric(name).ok(); });
  // GH100 (CC 9.0) has every optional metric of the catalog: the gmma stall, lrc__ L2
  // compression, TMA pipes.
  EXPECT_EQ(filtered, MetricsToCollect(full, {}));
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
