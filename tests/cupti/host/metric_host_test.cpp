// The metric host against the real CUPTI Profiler Host API, with no GPU: chips, the catalog,
// name checks and suggestions, config images and pass counts, units.
#include "cupti/host/metric_host.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "test_support.h"

namespace gpuscope::cupti::host {
namespace {

using testing::Gh100;
using testing::SectionMetrics;

bool Contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

TEST(MetricHostChips, SupportedChipsIncludeGh100) {
  StatusOr<std::vector<std::string>> chips = MetricHost::SupportedChips();
  ASSERT_TRUE(chips.ok()) << chips.status().message();
  EXPECT_TRUE(Contains(*chips, "GH100"));
  EXPECT_TRUE(Contains(*chips, "GA100"));
}

TEST(MetricHostChips, OpenIsCaseInsensitiveAndReportsCuptisSpelling) {
  StatusOr<std::unique_ptr<MetricHost>> host = MetricHost::Open("gh100");
  ASSERT_TRUE(host.ok()) << host.status().message();
  EXPECT_EQ((*host)->chip(), "GH100");
}

TEST(MetricHostChips, UnknownChipIsOneLineListingTheSupportedChips) {
  StatusOr<std::unique_ptr<MetricHost>> host = MetricHost::Open("XX1");
  ASSERT_FALSE(host.ok());
  const std::string& message = host.status().message();
  EXPECT_NE(message.find("\"XX1\""), std::string::npos) << message;
  EXPECT_NE(message.find("GH100"), std::string::npos) << message;
  EXPECT_NE(message.find("GV100"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_FALSE(MetricHost::Open("").ok());
}

TEST(MetricHostCatalog, BaseMetricsHaveEveryKindSortedWithDescriptions) {
  const std::vector<MetricDescription>& bases = Gh100().BaseMetrics();
  ASSERT_GT(bases.size(), 1000u);
  EXPECT_TRUE(std::is_sorted(bases.begin(), bases.end(),
                             [](const auto& a, const auto& b) { return a.name < b.name; }));
  auto find = [&](const std::string& name) {
    return std::find_if(bases.begin(), bases.end(), [&](const auto& d) { return d.name == name; });
  };
  auto dram = find("dram__bytes");
  ASSERT_NE(dram, bases.end());
  EXPECT_EQ(dram->kind, MetricKind::kCounter);
  EXPECT_EQ(dram->unit, "byte");
  EXPECT_EQ(dram->hw_unit, "dram");
  EXPECT_FALSE(dram->description.empty());
  auto throughput = find("sm__throughput");
  ASSERT_NE(throughput, bases.end());
  EXPECT_EQ(throughput->kind, MetricKind::kThroughput);
  auto ratio = find("smsp__average_warp_latency_per_inst_issued");
  ASSERT_NE(ratio, bases.end());
  EXPECT_EQ(ratio->kind, MetricKind::kRatio);
  // Cached: the same vector on the second call.
  EXPECT_EQ(&Gh100().BaseMetrics(), &bases);
}

TEST(MetricHostCatalog, SubMetricsDependOnTheKind) {
  const std::vector<std::string>& counter = Gh100().SubMetrics("dram__bytes");
  EXPECT_TRUE(Contains(counter, ".sum"));
  EXPECT_TRUE(Contains(counter, ".sum.per_second"));
  EXPECT_TRUE(Contains(counter, ".avg.pct_of_peak_sustained_elapsed"));
  const std::vector<std::string>& throughput = Gh100().SubMetrics("sm__throughput");
  EXPECT_TRUE(Contains(throughput, ".avg.pct_of_peak_sustained_elapsed"));
  EXPECT_FALSE(Contains(throughput, ".sum"));
  const std::vector<std::string>& ratio =
      Gh100().SubMetrics("smsp__sass_average_branch_targets_threads_uniform");
  EXPECT_TRUE(Contains(ratio, ".pct"));
  EXPECT_TRUE(Contains(ratio, ".ratio"));
  EXPECT_TRUE(Gh100().SubMetrics("nope__not_a_metric").empty());
}

TEST(MetricHostCheck, EverySectionMetricIsValidOnGh100) {
  std::vector<std::string> names = SectionMetrics();
  ASSERT_EQ(names.size(), 137u);
  for (const std::string& name : names) {
    Status status = Gh100().CheckMetric(name);
    EXPECT_TRUE(status.ok()) << status.message();
  }
}

TEST(MetricHostCheck, MisspeltBaseSuggestsTheNearestBaseWithTheTypedSuffix) {
  Status status = Gh100().CheckMetric("dram__byte.sum");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("\"dram__byte.sum\""), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("GH100"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("did you mean dram__bytes.sum"), std::string::npos)
      << status.message();
  EXPECT_EQ(status.message().find('\n'), std::string::npos);
}

TEST(MetricHostCheck, MisspeltSuffixSuggestsTheBasesNearestSuffixes) {
  Status status = Gh100().CheckMetric("dram__bytes.summ");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("has no sub-metric \".summ\""), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("did you mean dram__bytes.sum"), std::string::npos)
      << status.message();
  std::vector<std::string> nearest = Gh100().NearestNames("dram__bytes.summ", 3);
  ASSERT_EQ(nearest.size(), 3u);
  EXPECT_EQ(nearest[0], "dram__bytes.sum");
  for (const std::string& name : nearest) EXPECT_TRUE(Gh100().CheckMetric(name).ok()) << name;
}

TEST(MetricHostCheck, SuggestionsAreValidNamesEvenWhenTheSuffixDoesNotFitTheBase) {
  // A throughput has no ".sum": the nearest bases get a suffix of their own.
  std::vector<std::string> nearest = Gh100().NearestNames("sm__thruput.sum", 3);
  ASSERT_EQ(nearest.size(), 3u);
  EXPECT_TRUE(nearest[0].starts_with("sm__throughput.")) << nearest[0];
  for (const std::string& name : nearest) EXPECT_TRUE(Gh100().CheckMetric(name).ok()) << name;
}

TEST(MetricHostCheck, NamesAreCaseSensitiveButSuggestionsAreNot) {
  Status status = Gh100().CheckMetric("DRAM__BYTES.SUM");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("did you mean dram__bytes.sum"), std::string::npos)
      << status.message();
}

TEST(MetricHostCheck, BareBaseAndEmptyNameAreRejected) {
  Status bare = Gh100().CheckMetric("dram__bytes");
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.message().find("needs a sub-metric"), std::string::npos) << bare.message();
  EXPECT_NE(bare.message().find("dram__bytes."), std::string::npos) << bare.message();
  EXPECT_FALSE(Gh100().CheckMetric("").ok());
  EXPECT_FALSE(Gh100().CheckMetric("sm__throughput.avg").ok());  // a throughput is a percentage
  EXPECT_FALSE(Gh100().CheckMetric(" dram__bytes.sum").ok());
}

TEST(MetricHostCheck, CheckMetricsReportsTheFirstBadName) {
  EXPECT_TRUE(Gh100().CheckMetrics({"dram__bytes.sum", "gpu__time_duration.sum"}).ok());
  Status status = Gh100().CheckMetrics({"dram__bytes.sum", "gpu__time_duration.summ", "x.y"});
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("gpu__time_duration.summ"), std::string::npos)
      << status.message();
}

// The catalog parse stands in for CUPTI's own check (ConfigAddMetrics, ~3 ms per name): both must
// agree, on valid names of every kind and on the near misses the parse rejects. The exception is
// the chip-to-chip ctc__ family (next test), which CUPTI lists but cannot schedule in part.
TEST(MetricHostCheck, CatalogAgreesWithCuptisConfigOnValidAndInvalidNames) {
  MetricHost& host = Gh100();
  std::vector<std::string> valid;
  const std::vector<MetricDescription>& bases = host.BaseMetrics();
  for (std::size_t i = 0; i < bases.size(); i += 101) {
    if (bases[i].name.find("ctc__") != std::string::npos) continue;
    const std::vector<std::string>& suffixes = host.SubMetrics(bases[i].name);
    ASSERT_FALSE(suffixes.empty()) << bases[i].name;
    valid.push_back(bases[i].name + suffixes.front());
    valid.push_back(bases[i].name + suffixes.back());
  }
  valid.push_back("LTS.TriageCompute.lts__average_t_sector_aperture_device.pct");
  for (const std::string& name : valid) {
    EXPECT_TRUE(host.CheckMetric(name).ok()) << name;
    StatusOr<ConfigImage> config = host.MakeConfig({name});
    EXPECT_TRUE(config.ok()) << name << ": " << config.status().message();
  }
  for (const std::string name :
       {"dram__bytes", "sm__throughput.avg", "dram__bytes.sum.peak_sustained.per_second",
        "lts__average_t_sector_aperture_device.pct", "DRAM__BYTES.SUM"}) {
    EXPECT_FALSE(host.CheckMetric(name).ok()) << name;
    EXPECT_FALSE(host.MakeConfig({name}).ok()) << name;
  }
}

// CUPTI 13.0 lists ctc__rx_bytes.sum.pct_of_peak_sustained_elapsed for GH100 but refuses to
// configure it (as every per-cycle and %-of-peak sub-metric of the ctc__ counters). MakeConfig
// must name it rather than report CUPTI's anonymous INVALID_PARAMETER. (Should a later CUPTI
// accept it, this test fails: pick another name the scan in the report finds.)
TEST(MetricHostConfig, NamesTheListedMetricCuptiCannotSchedule) {
  const std::string unschedulable = "ctc__rx_bytes.sum.pct_of_peak_sustained_elapsed";
  ASSERT_TRUE(Gh100().CheckMetric(unschedulable).ok());
  StatusOr<ConfigImage> config =
      Gh100().MakeConfig({"gpu__time_duration.sum", unschedulable, "dram__bytes.sum"});
  ASSERT_FALSE(config.ok());
  const std::string& message = config.status().message();
  EXPECT_NE(message.find(unschedulable), std::string::npos) << message;
  EXPECT_EQ(message.find("gpu__time_duration.sum"), std::string::npos) << message;
  EXPECT_EQ(message.find("dram__bytes.sum"), std::string::npos) << message;
  EXPECT_TRUE(Gh100().MakeConfig({"ctc__rx_bytes.sum"}).ok());
}

TEST(MetricHostCheck, CheckingTheSectionMetricsIsCheap) {
  std::vector<std::string> names = SectionMetrics();
  ASSERT_TRUE(Gh100().CheckMetrics(names).ok());  // loads the sub-metrics once
  auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < 20; ++round) ASSERT_TRUE(Gh100().CheckMetrics(names).ok());
  auto elapsed = std::chrono::steady_clock::now() - start;
  // 2740 checks. Asking CUPTI per name would take ~8 s; the catalog takes milliseconds.
  EXPECT_LT(std::chrono::duration_cast<std::chrono::milliseconds>(elapsed).count(), 1000);
}

TEST(MetricHostConfig, SectionMetricsTogetherNeedTwentyPasses) {
  std::vector<std::string> names = SectionMetrics();
  StatusOr<ConfigImage> config = Gh100().MakeConfig(names);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_FALSE(config->bytes.empty());
  EXPECT_EQ(config->passes, 20u);
  StatusOr<std::uint32_t> passes = Gh100().CountPasses(names);
  ASSERT_TRUE(passes.ok()) << passes.status().message();
  EXPECT_EQ(*passes, 20u);
}

TEST(MetricHostConfig, EachConfigStartsFromScratch) {
  // CUPTI accumulates metrics in a host object; configs built one after the other must not.
  StatusOr<std::uint32_t> one = Gh100().CountPasses({"gpu__time_duration.sum"});
  ASSERT_TRUE(one.ok()) << one.status().message();
  EXPECT_EQ(*one, 1u);
  ASSERT_TRUE(Gh100().CountPasses(SectionMetrics()).ok());
  StatusOr<ConfigImage> again = Gh100().MakeConfig({"gpu__time_duration.sum"});
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->passes, 1u);
  EXPECT_LT(again->bytes.size(), Gh100().MakeConfig(SectionMetrics())->bytes.size());
}

TEST(MetricHostConfig, ABadNameFailsTheConfigAndIsNamed) {
  StatusOr<ConfigImage> config =
      Gh100().MakeConfig({"gpu__time_duration.sum", "dram__byte.sum", "sm__cycles_active.avg"});
  ASSERT_FALSE(config.ok());
  EXPECT_NE(config.status().message().find("\"dram__byte.sum\""), std::string::npos)
      << config.status().message();
  StatusOr<ConfigImage> empty = Gh100().MakeConfig({});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("no metrics"), std::string::npos);
}

TEST(MetricHostDescribe, UnitsFollowTheSubMetric) {
  struct Expected {
    const char* name;
    MetricKind kind;
    const char* unit;
    const char* hw_unit;
  };
  for (const Expected& expected : {
           Expected{"dram__bytes.sum", MetricKind::kCounter, "byte", "dram"},
           Expected{"dram__bytes.sum.per_second", MetricKind::kCounter, "byte/second", "dram"},
           Expected{"dram__bytes.sum.peak_sustained", MetricKind::kCounter, "byte/cycle", "dram"},
           Expected{"dram__bytes.avg.pct_of_peak_sustained_elapsed", MetricKind::kCounter, "%",
                    "dram"},
           Expected{"gpu__time_duration.sum", MetricKind::kCounter, "nsecond", "gpu"},
           Expected{"gpc__cycles_elapsed.max", MetricKind::kCounter, "cycle", "gpc"},
           Expected{"sm__inst_executed.avg.per_cycle_active", MetricKind::kCounter, "inst/cycle",
                    "sm"},
           Expected{"sm__throughput.avg.pct_of_peak_sustained_elapsed", MetricKind::kThroughput,
                    "%", "sm"},
           Expected{"smsp__sass_average_branch_targets_threads_uniform.pct", MetricKind::kRatio,
                    "%", "smsp"},
           Expected{"smsp__average_warp_latency_per_inst_issued.ratio", MetricKind::kRatio, "cycle",
                    "smsp"},
           Expected{"smsp__thread_inst_executed_per_inst_executed.ratio", MetricKind::kRatio, "",
                    "smsp"},
       }) {
    MetricDescription description = Gh100().Describe(expected.name);
    EXPECT_EQ(description.name, expected.name);
    EXPECT_EQ(description.kind, expected.kind) << expected.name;
    EXPECT_EQ(description.unit, expected.unit)
        << expected.name << " (" << description.dimension << ")";
    EXPECT_EQ(description.hw_unit, expected.hw_unit) << expected.name;
    EXPECT_FALSE(description.description.empty()) << expected.name;
  }
  EXPECT_EQ(Gh100().Describe("sm__throughput.avg.pct_of_peak_sustained_elapsed").dimension,
            "percent");
}

TEST(MetricHostDescribe, UnknownNamesKeepTheirNameAndTheBasesKind) {
  MetricDescription unknown = Gh100().Describe("nope__not_a_metric.sum");
  EXPECT_EQ(unknown.name, "nope__not_a_metric.sum");
  EXPECT_TRUE(unknown.unit.empty());
  EXPECT_TRUE(unknown.description.empty());
  MetricDescription bad_suffix = Gh100().Describe("sm__throughput.sum");
  EXPECT_EQ(bad_suffix.kind, MetricKind::kThroughput);
  EXPECT_TRUE(bad_suffix.unit.empty());
}

TEST(MetricKindName, NamesEveryKind) {
  EXPECT_EQ(MetricKindName(MetricKind::kCounter), "counter");
  EXPECT_EQ(MetricKindName(MetricKind::kRatio), "ratio");
  EXPECT_EQ(MetricKindName(MetricKind::kThroughput), "throughput");
}

}  // namespace
}  // namespace gpuscope::cupti::host
