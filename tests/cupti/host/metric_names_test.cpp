#include "cupti/host/metric_names.h"

#include <gtest/gtest.h>

namespace gpuscope::cupti::host {
namespace {

TEST(SplitMetricName, SplitsAtTheFirstDotAfterTheDoubleUnderscore) {
  MetricNameParts parts = SplitMetricName("dram__bytes.sum.per_second");
  EXPECT_EQ(parts.base, "dram__bytes");
  EXPECT_EQ(parts.suffix, ".sum.per_second");
}

TEST(SplitMetricName, KeepsTheDottedPrefixOfSomeGh100Bases) {
  MetricNameParts parts = SplitMetricName("LTS.TriageCompute.lts__average_t_sector_hit_rate.pct");
  EXPECT_EQ(parts.base, "LTS.TriageCompute.lts__average_t_sector_hit_rate");
  EXPECT_EQ(parts.suffix, ".pct");
}

TEST(SplitMetricName, BareBaseHasNoSuffix) {
  MetricNameParts parts = SplitMetricName("sm__throughput");
  EXPECT_EQ(parts.base, "sm__throughput");
  EXPECT_TRUE(parts.suffix.empty());
}

TEST(SplitMetricName, NameWithoutDoubleUnderscoreSplitsAtItsFirstDot) {
  MetricNameParts parts = SplitMetricName("dram_bytes.sum");
  EXPECT_EQ(parts.base, "dram_bytes");
  EXPECT_EQ(parts.suffix, ".sum");
}

TEST(EditDistance, CountsInsertionsDeletionsAndSubstitutions) {
  EXPECT_EQ(EditDistance("dram__bytes", "dram__bytes"), 0u);
  EXPECT_EQ(EditDistance("dram__byte", "dram__bytes"), 1u);
  EXPECT_EQ(EditDistance(".summ", ".sum"), 1u);
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("abc", ""), 3u);
}

TEST(EditDistance, IgnoresAsciiCase) { EXPECT_EQ(EditDistance("DRAM__Bytes", "dram__bytes"), 0u); }

TEST(NearestCandidates, RanksByDistanceAndKeepsOrderOnTies) {
  // Distances from "dram__byte": 6, 1, 7, 9, 13.
  std::vector<std::string> candidates = {"dram__bytes_read", "dram__bytes", "dram__bytes_write",
                                         "dram__bytes_write_x", "sm__cycles_active"};
  EXPECT_EQ(NearestCandidates("dram__byte", candidates, 3),
            (std::vector<std::string>{"dram__bytes", "dram__bytes_read", "dram__bytes_write"}));
  EXPECT_EQ(NearestCandidates("dram__byte", candidates, 1),
            (std::vector<std::string>{"dram__bytes"}));
}

TEST(NearestCandidates, ReturnsAtMostWhatThereIs) {
  EXPECT_EQ(NearestCandidates("x", {"a", "b"}, 5).size(), 2u);
  EXPECT_TRUE(NearestCandidates("x", {}, 3).empty());
  EXPECT_TRUE(NearestCandidates("x", {"a"}, 0).empty());
}

TEST(NearestCandidates, TheLengthShortcutNeverDropsACloserLaterCandidate) {
  // The far candidates come first; the exact match must still win.
  std::vector<std::string> candidates = {"aaaaaaaaaaaaaaaaaaaa", "b", "bbbbbbbbbbbbbbbb", "query"};
  EXPECT_EQ(NearestCandidates("query", candidates, 1), (std::vector<std::string>{"query"}));
}

}  // namespace
}  // namespace gpuscope::cupti::host
