// The rows a finding cites (example_rows.h): the longest few of however many matched.
#include "analysis/trace_rules/example_rows.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace gpuscope::analysis {
namespace {

constexpr model::Timestamp kOrigin = 1'700'000'000'000'000'000;

TEST(ExampleRows, KeepsTheLongestFewInOrder) {
  trace_rules::ExampleRows rows(3);
  for (std::uint64_t i = 0; i < 100; ++i) {
    rows.Offer(CitedRow{"kernels", i, kOrigin + i, (i * 37) % 101, ""});
  }
  std::vector<CitedRow> kept = rows.Sorted();
  ASSERT_EQ(kept.size(), 3u);
  // (i * 37) % 101 is a permutation: its three largest values over i < 100 are 100, 99, 98.
  EXPECT_EQ(kept[0].duration_ns, 100u);
  EXPECT_EQ(kept[1].duration_ns, 99u);
  EXPECT_EQ(kept[2].duration_ns, 98u);
}

TEST(ExampleRows, RanksByTheGivenKey) {
  trace_rules::ExampleRows rows(2);
  rows.Offer(CitedRow{"kernels", 1, kOrigin, 1000, ""}, 5);
  rows.Offer(CitedRow{"kernels", 2, kOrigin, 10, ""}, 50);
  rows.Offer(CitedRow{"kernels", 3, kOrigin, 100, ""}, 20);
  std::vector<CitedRow> kept = rows.Sorted();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].id, 2u);
  EXPECT_EQ(kept[1].id, 3u);
}

}  // namespace
}  // namespace gpuscope::analysis
