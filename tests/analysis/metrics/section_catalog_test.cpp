#include "analysis/metrics/section_catalog.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

namespace gpuscope::analysis::metrics {
namespace {

std::vector<std::string> Identifiers(const std::vector<const Section*>& sections) {
  std::vector<std::string> ids;
  for (const Section* s : sections) ids.push_back(s->identifier);
  return ids;
}

std::set<std::string> Gh100Names() {
  std::ifstream in(std::string(GPUSCOPE_SOURCE_DIR) + "/tests/analysis/metrics/gh100_metric_names.txt");
  std::set<std::string> names;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line[0] != '#') names.insert(line);
  }
  return names;
}

TEST(SectionCatalog, BasicSetIsNcuDefaultSet) {
  auto basic = SectionsOfSet("basic");
  ASSERT_TRUE(basic.ok());
  EXPECT_EQ(Identifiers(basic.value()),
            (std::vector<std::string>{"SpeedOfLight", "LaunchStats", "Occupancy",
                                      "WorkloadDistribution"}));
}

TEST(SectionCatalog, FullSetHasEverySection) {
  auto full = SectionsOfSet("FULL");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->size(), AllSections().size());
  EXPECT_EQ(Identifiers(full.value()),
            (std::vector<std::string>{
                "SpeedOfLight", "SpeedOfLight_RooflineChart", "ComputeWorkloadAnalysis",
                "MemoryWorkloadAnalysis", "SchedulerStats", "WarpStateStats", "InstructionStats",
                "LaunchStats", "Occupancy", "WorkloadDistribution", "SourceCounters"}));
}

TEST(SectionCatalog, UnknownSetListsTheKnownOnes) {
  auto set = SectionsOfSet("detailed");
  ASSERT_FALSE(set.ok());
  EXPECT_EQ(set.status().message(), "unknown set 'detailed'; known sets: basic, full");
}

TEST(SectionCatalog, FindsSectionsByIdentifierOrDisplayNameIgnoringCase) {
  for (const char* name : {"speedoflight", "SpeedOfLight", "GPU SPEED OF LIGHT THROUGHPUT",
                           " gpu speed of light throughput "}) {
    auto found = FindSection(name);
    ASSERT_TRUE(found.ok()) << name;
    EXPECT_EQ(found.value()->identifier, "SpeedOfLight");
  }
  auto warp = FindSection("warp state statistics");
  ASSERT_TRUE(warp.ok());
  EXPECT_EQ(warp.value()->identifier, "WarpStateStats");
}

TEST(SectionCatalog, FindSectionsKeepsTheOrderGivenAndFailsOnTheFirstUnknownName) {
  auto found = FindSections({"Occupancy", "speedoflight"});
  ASSERT_TRUE(found.ok()) << found.status().message();
  ASSERT_EQ(found->size(), 2u);
  EXPECT_EQ((*found)[0]->identifier, "Occupancy");
  EXPECT_EQ((*found)[1]->identifier, "SpeedOfLight");
  auto missing = FindSections({"Occupancy", "NoSuchSection"});
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("NoSuchSection"), std::string::npos);
  EXPECT_TRUE(FindSections({}).value().empty());
}

TEST(SectionCatalog, UnknownSectionIsOneLineListingEveryIdentifier) {
  auto found = FindSection("MemoryChart");
  ASSERT_FALSE(found.ok());
  const std::string& message = found.status().message();
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_EQ(message.rfind("unknown section 'MemoryChart'; known sections: SpeedOfLight, ", 0), 0u)
      << message;
  for (const Section& s : AllSections()) {
    EXPECT_NE(message.find(s.identifier), std::string::npos) << s.identifier;
  }
}

TEST(SectionCatalog, SelectSectionsDefaultsToBasicAndKeepsPrintOrder) {
  auto none = SelectSections(std::nullopt, {});
  ASSERT_TRUE(none.ok());
  EXPECT_EQ(Identifiers(none.value()), Identifiers(SectionsOfSet("basic").value()));

  // Named sections alone replace the default set; order follows the catalog.
  auto named = SelectSections(std::nullopt, {"Occupancy", "speedoflight", "Occupancy"});
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(Identifiers(named.value()), (std::vector<std::string>{"SpeedOfLight", "Occupancy"}));

  // A set and sections: their union.
  auto both = SelectSections("basic", {"Source Counters"});
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(Identifiers(both.value()),
            (std::vector<std::string>{"SpeedOfLight", "LaunchStats", "Occupancy",
                                      "WorkloadDistribution", "SourceCounters"}));

  auto bad = SelectSections("basic", {"Nope"});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("unknown section 'Nope'"), std::string::npos);
}

TEST(SectionCatalog, MetricsToCollectIsSortedUniqueAndIncludesExtras) {
  auto basic = SectionsOfSet("basic").value();
  const auto names = MetricsToCollect(basic, {"zz__user.sum", "gpu__time_duration.sum"});
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  EXPECT_NE(std::find(names.begin(), names.end(), "zz__user.sum"), names.end());
  for (const char* expected :
       {"gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__cycles_elapsed.sum",
        "gpc__cycles_elapsed.avg.per_second", "dram__cycles_elapsed.avg.per_second",
        "lts__t_sectors.avg.pct_of_peak_sustained_elapsed"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
  // Launch statistics and theoretical occupancy are computed, never collected.
  for (const std::string& name : names) EXPECT_EQ(name.rfind("launch__", 0), std::string::npos);
  // The basic set collects no full-set-only metrics.
  EXPECT_EQ(std::find(names.begin(), names.end(),
                      "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"),
            names.end());
}

TEST(SectionCatalog, FullSetCollectsEveryStallReason) {
  const auto names = MetricsToCollect(SectionsOfSet("full").value(), {});
  int stalls = 0;
  for (const std::string& name : names) {
    if (name.rfind("smsp__average_warps_issue_stalled_", 0) == 0) ++stalls;
  }
  EXPECT_EQ(stalls, 19);  // cupti.md §3.4: 18 reasons everywhere + gmma on CC 9.0
  EXPECT_GT(names.size(), MetricsToCollect(SectionsOfSet("basic").value(), {}).size());
}

TEST(SectionCatalog, OptionalNamesAreDroppedWhenTheChipLacksThem) {
  auto full = SectionsOfSet("full").value();
  const std::string gmma = "smsp__average_warps_issue_stalled_gmma_per_issue_active.ratio";
  const auto no_gmma = MetricsToCollect(full, {}, [&](std::string_view name) {
    return name != gmma && name != "gpu__time_duration.sum";
  });
  EXPECT_EQ(std::find(no_gmma.begin(), no_gmma.end(), gmma), no_gmma.end());
  // A required name is kept even when the predicate rejects it: it must fail loudly.
  EXPECT_NE(std::find(no_gmma.begin(), no_gmma.end(), "gpu__time_duration.sum"), no_gmma.end());
  const auto all = MetricsToCollect(full, {});
  EXPECT_NE(std::find(all.begin(), all.end(), gmma), all.end());
}

TEST(SectionCatalog, EveryCatalogNameWasCheckedOnGh100) {
  const auto known = Gh100Names();
  ASSERT_GT(known.size(), 137u);
  for (const std::string& name : MetricsToCollect(SectionsOfSet("full").value(), {})) {
    EXPECT_TRUE(known.count(name)) << name << " is not in tests/analysis/metrics/gh100_metric_names.txt";
  }
}

TEST(SectionCatalog, EntriesAreWellFormed) {
  std::set<std::string> display_names;
  for (const Section& s : AllSections()) {
    EXPECT_TRUE(display_names.insert(s.display_name).second) << s.display_name;
    EXPECT_FALSE(s.entries.empty()) << s.identifier;
    std::set<std::pair<std::string, std::string>> labels;
    for (const SectionEntry& e : s.entries) {
      EXPECT_TRUE(labels.insert({e.table, e.label}).second) << s.identifier << ": " << e.label;
      switch (e.source) {
        case ValueSource::kMetric:
          EXPECT_EQ(e.metrics.size(), 1u) << e.label;
          EXPECT_EQ(e.MetricId(), e.metrics.front());
          break;
        case ValueSource::kFormula:
          EXPECT_NE(e.formula, nullptr) << e.label;
          EXPECT_FALSE(e.metrics.empty()) << e.label;
          EXPECT_EQ(e.MetricId(), "");
          break;
        case ValueSource::kLaunch:
        case ValueSource::kOccupancy:
          EXPECT_NE(e.launch_value, LaunchValue::kNone) << e.label;
          EXPECT_TRUE(e.metrics.empty()) << e.label;
          break;
      }
    }
  }
}

TEST(SectionCatalog, SpeedOfLightHasBothBreakdownTables) {
  const Section* sol = FindSection("SpeedOfLight").value();
  int compute = 0, memory = 0;
  for (const SectionEntry& e : sol->entries) {
    compute += e.table == "SOL Compute Breakdown";
    memory += e.table == "SOL Memory Breakdown";
  }
  EXPECT_GE(compute, 10);
  EXPECT_GE(memory, 10);
}

TEST(SectionCatalog, CommandLineMetricsBecomeALastSectionLabelledByName) {
  const Section section =
      CommandLineMetricsSection(SplitMetricList("a__x.sum, b__y.avg,,a__x.sum"));
  EXPECT_EQ(section.display_name, "Command line profiler metrics");
  ASSERT_EQ(section.entries.size(), 2u);
  EXPECT_EQ(section.entries[0].label, "a__x.sum");
  EXPECT_EQ(section.entries[0].MetricId(), "a__x.sum");
  EXPECT_EQ(section.entries[1].label, "b__y.avg");
  EXPECT_EQ(SectionMetricNames(section), (std::vector<std::string>{"a__x.sum", "b__y.avg"}));
  // What is collected adds the clocks measured during the kernel (never locked by gpuscope).
  EXPECT_EQ(MetricsToCollect({&section}, {}),
            (std::vector<std::string>{"a__x.sum", "b__y.avg", "dram__cycles_elapsed.avg.per_second",
                                      "gpc__cycles_elapsed.avg.per_second"}));
  EXPECT_TRUE(MetricsToCollect({}, {}).empty());
}

TEST(SectionCatalog, SplitMetricListDropsBlanks) {
  EXPECT_EQ(SplitMetricList(" a , b,, c "), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(SplitMetricList("").empty());
  EXPECT_TRUE(SplitMetricList(" , ").empty());
}

}  // namespace
}  // namespace gpuscope::analysis::metrics
