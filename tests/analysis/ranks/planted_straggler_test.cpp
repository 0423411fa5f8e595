// 64 synthetic ranks on 16 hosts with unknown clock offsets (store/testing/rank_reports.h):
// aligned, then analysed; the planted straggler must be named with the time the others
// lost, and a job without one must have no straggler finding.
#include <gtest/gtest.h>

#include <cstdlib>

#include "analysis/ranks/clock_alignment.h"
#include "analysis/ranks/comm_analysis.h"
#include "find_finding.h"
#include "store/testing/rank_reports.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::ranks {
namespace {

using store::testing::RankReportsSpec;

RankReportsSpec SixtyFourRanksOnSixteenHosts() {
  RankReportsSpec spec;
  spec.ranks = 64;
  spec.ranks_per_host = 4;
  spec.steps = 10;
  // Host clocks off by up to +-3 ms: unaligned, every wait below would be off by that much.
  for (int h = 0; h < 16; ++h)
    spec.host_clock_offset_ns.push_back((h * 379'000) % 6'000'000 - 3'000'000);
  return spec;
}

StatusOr<CommAnalysis> Analyze(const RankReportsSpec& spec, const std::string& dir) {
  std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir);
  if (paths.size() != static_cast<std::size_t>(spec.ranks)) return Status::Error("not written");
  StatusOr<std::vector<RankClock>> clocks = AlignReports(paths);
  if (!clocks.ok()) return clocks.status();
  return AnalyzeCommunication(*clocks);
}

TEST(PlantedStraggler, IsNamedWithTheTimeTheOthersLost) {
  store::testing::ScratchDir dir;
  RankReportsSpec spec = SixtyFourRanksOnSixteenHosts();
  spec.straggler_rank = 37;
  spec.straggler_delay_ns = 2'000'000;
  StatusOr<CommAnalysis> analysis = Analyze(spec, dir.path());
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  ASSERT_EQ(analysis->ranks.size(), 64u);
  EXPECT_EQ(analysis->matched_collectives, 10u);
  const Finding* straggler = FindRule(*analysis, "rank_straggler");
  ASSERT_NE(straggler, nullptr);
  EXPECT_NE(straggler->message.find("rank 37 (node9"), std::string::npos) << straggler->message;
  EXPECT_EQ(straggler->occurrences, 10u);  // last in every step
  // What the generator planted: delay x steps x (ranks - 1). The ranks' own arrivals differ
  // by the generator's jitter (a few us per step: 2% of each kernel, 3 us of host start),
  // well under 1% of a 2 ms delay.
  const double planted = 2'000'000.0 * 10 * 63;
  EXPECT_NEAR(static_cast<double>(straggler->time_ns), planted, planted * 0.01);
  // Every other rank waited about the delay in each step; the straggler never.
  EXPECT_LT(analysis->ranks[37].breakdown.wait_on_ranks_ns, 10'000u * 10);
  for (std::size_t r = 0; r < 64; ++r) {
    if (r == 37) continue;
    EXPECT_NEAR(static_cast<double>(analysis->ranks[r].breakdown.wait_on_ranks_ns),
                2'000'000.0 * 10, 2'000'000.0 * 10 * 0.01)
        << r;
  }
}

TEST(PlantedStraggler, NoneWhenNonePlanted) {
  store::testing::ScratchDir dir;
  StatusOr<CommAnalysis> analysis = Analyze(SixtyFourRanksOnSixteenHosts(), dir.path());
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  EXPECT_EQ(analysis->matched_collectives, 10u);
  EXPECT_EQ(FindRule(*analysis, "rank_straggler"), nullptr);
  // Identical work on every rank: no imbalance either.
  EXPECT_EQ(FindRule(*analysis, "rank_imbalance"), nullptr);
}

TEST(PlantedStraggler, BreakdownAddsUp) {
  store::testing::ScratchDir dir;
  StatusOr<CommAnalysis> analysis = Analyze(SixtyFourRanksOnSixteenHosts(), dir.path());
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  for (const RankResult& rank : analysis->ranks) {
    const RankBreakdown& b = rank.breakdown;
    EXPECT_GT(b.compute_ns, 0u);
    EXPECT_GT(b.communication_ns, 0u);
    EXPECT_EQ(b.exposed_ns + b.overlap_ns, b.communication_ns);
    EXPECT_EQ(b.idle_host_ns + b.idle_other_ns, b.idle_ns);
    EXPECT_EQ(b.busy_ns + b.idle_ns, b.span_ns);
  }
  // NCCL's API calls are there (the generator's "ncclAllReduce" ranges), without sizes.
  ASSERT_EQ(analysis->nccl_api_calls.count("ncclAllReduce"), 1u);
  EXPECT_EQ(analysis->nccl_api_calls.at("ncclAllReduce").count, 640u);
  EXPECT_EQ(analysis->nccl_api_calls.at("ncclAllReduce").without_bytes, 640u);
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
