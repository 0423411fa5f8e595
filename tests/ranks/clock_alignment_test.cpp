// The alignment of many ranks' clocks (analysis/ranks/clock_alignment.h) on synthetic
// reports with known clock errors (store/testing/rank_reports.h), on hand-made summaries
// where the arithmetic is checked directly, and on old reports that know no rank.
#include "analysis/ranks/clock_alignment.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "store/report_reader.h"
#include "store/testing/rank_reports.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::ranks {
namespace {

using store::testing::RankReportsSpec;
using store::testing::ScratchDir;

// The bound the test holds the measured error to on collectives that end exactly together
// in true time: the method must not invent error (the generator adds none to the ends).
constexpr std::int64_t kErrorBoundNs = 1'000;

// 64 ranks on 8 hosts, every host's clock off by its own amount (the reference host's too,
// so that offsets are relative to it), a straggler that the ends must not be fooled by.
RankReportsSpec SixtyFourRanks() {
  RankReportsSpec spec;
  spec.ranks = 64;
  spec.ranks_per_host = 8;
  spec.host_clock_offset_ns = {1'500'000,      -3'200'000, 7'000'000'000, 42,
                               -2'000'000'000, 250'000,    -17'123'457,   120'000'000};
  spec.steps = 6;
  spec.kernels_per_step = 4;
  spec.straggler_rank = 13;
  spec.straggler_delay_ns = 400'000;
  return spec;
}

TEST(AlignReports, RecoversEveryHostsClockOffsetFromCollectives) {
  ScratchDir dir;
  RankReportsSpec spec = SixtyFourRanks();
  std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 64u);
  // Given out of rank order: the result is in rank order anyway.
  std::vector<std::string> shuffled(paths.rbegin(), paths.rend());
  StatusOr<std::vector<RankClock>> clocks = AlignReports(shuffled);
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 64u);
  for (int r = 0; r < 64; ++r) {
    const RankClock& clock = clocks.value()[r];
    SCOPED_TRACE("rank " + std::to_string(r));
    ASSERT_EQ(clock.rank, r);
    EXPECT_EQ(clock.path, paths[r]);
    EXPECT_EQ(clock.index, static_cast<std::size_t>(63 - r));
    EXPECT_EQ(clock.host, "node" + std::to_string(r / 8));
    EXPECT_EQ(clock.pid, 30000u + r);
    const int host = r / 8;
    // Aligned time = time + offset: host h's times carry its error, the reference host's its.
    const std::int64_t truth = spec.host_clock_offset_ns[0] - spec.host_clock_offset_ns[host];
    if (host == 0) {
      EXPECT_EQ(clock.offset_ns, 0);
      EXPECT_EQ(clock.method, r == 0 ? "reference" : "same host");
    } else {
      EXPECT_EQ(clock.method, "collectives (6 matched)");
    }
    EXPECT_GE(clock.error_ns, 0);
    EXPECT_LE(clock.error_ns, kErrorBoundNs);
    EXPECT_LE(std::llabs(clock.offset_ns - truth), clock.error_ns)
        << "offset " << clock.offset_ns << ", truth " << truth;
  }
}

TEST(AlignReports, ReportsOfOneHostKeepTheirClocks) {
  ScratchDir dir;
  RankReportsSpec spec;
  spec.ranks = 4;
  spec.ranks_per_host = 4;
  spec.host_clock_offset_ns = {9'000'000};
  spec.steps = 3;
  spec.kernels_per_step = 2;
  StatusOr<std::vector<RankClock>> clocks =
      AlignReports(store::testing::WriteRankReports(spec, dir.path()));
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 4u);
  for (const RankClock& clock : clocks.value()) {
    EXPECT_EQ(clock.offset_ns, 0);
    // The clocks are read together at every sample: CUPTI minus realtime never moves.
    EXPECT_EQ(clock.error_ns, 0);
    EXPECT_EQ(clock.method, clock.rank == 0 ? "reference" : "same host");
  }
}

TEST(AlignReports, WithoutCollectivesFallsBackToClockSamplesAndSaysSo) {
  ScratchDir dir;
  RankReportsSpec spec;
  spec.ranks = 4;
  spec.ranks_per_host = 2;
  spec.host_clock_offset_ns = {0, 5'000'000};
  spec.steps = 3;
  spec.kernels_per_step = 2;
  spec.nccl = false;
  StatusOr<std::vector<RankClock>> clocks =
      AlignReports(store::testing::WriteRankReports(spec, dir.path()));
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 4u);
  EXPECT_EQ(clocks.value()[1].method, "same host");
  for (int r = 2; r < 4; ++r) {
    const RankClock& clock = clocks.value()[r];
    EXPECT_EQ(clock.method, "clock samples only");
    EXPECT_EQ(clock.error_ns, -1);  // nothing measured it
    // The generator's CUPTI clock is its realtime clock on every host: the samples cannot see
    // the hosts' error, and say 0.
    EXPECT_EQ(clock.offset_ns, 0);
  }
}

// Two single-rank reports on two hosts whose CUPTI clocks run behind realtime by different
// amounts: the samples give the difference.
TEST(AlignReports, ClockSamplesGiveTheDifferenceOfCuptiMinusRealtime) {
  ScratchDir dir;
  auto write = [&](const std::string& name, std::int64_t rank, std::string_view host,
                   std::int64_t realtime_minus_cupti) {
    store::testing::ReportBuilder::Options options;
    options.hostname = host;
    options.boot_id = host;
    options.rank = rank;
    options.pid = static_cast<std::uint32_t>(100 + rank);
    store::testing::ReportBuilder report(dir.File(name), options);
    report.ClockSample(0, realtime_minus_cupti).ClockSample(1'000'000, realtime_minus_cupti + 40);
    EXPECT_TRUE(report.Close().ok());
    return dir.File(name);
  };
  std::vector<std::string> paths = {write("b.sqlite", 1, "hostb", 2'000),
                                    write("a.sqlite", 0, "hosta", 5'000)};
  StatusOr<std::vector<RankClock>> clocks = AlignReports(paths);
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 2u);
  EXPECT_EQ(clocks.value()[0].method, "reference");
  EXPECT_EQ(clocks.value()[0].error_ns, 40);  // the spread of its own samples
  // An event at true time T reads T - 5000 on host a and T - 2000 on host b.
  EXPECT_EQ(clocks.value()[1].offset_ns, -3'000);
  EXPECT_EQ(clocks.value()[1].method, "clock samples only");
  EXPECT_EQ(clocks.value()[1].error_ns, -1);
}

TEST(AlignReports, OldReportsWithoutRanksAreOrderedByPathOnTheirOwnClocks) {
  const std::string dir = std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/";
  StatusOr<std::vector<RankClock>> clocks =
      AlignReports({dir + "h200_nvtx_ranges.sqlite", dir + "h200_add.sqlite"});
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 2u);
  EXPECT_EQ(clocks.value()[0].path, dir + "h200_add.sqlite");
  EXPECT_EQ(clocks.value()[0].index, 1u);
  for (const RankClock& clock : clocks.value()) {
    EXPECT_FALSE(clock.rank.has_value());
    EXPECT_EQ(clock.offset_ns, 0);  // one host, no samples: nothing to move
  }
}

TEST(AlignReports, ABadReportIsAnErrorNamingIt) {
  ScratchDir dir;
  const std::string missing = dir.File("missing.sqlite");
  StatusOr<std::vector<RankClock>> clocks = AlignReports(std::vector<std::string>{missing});
  ASSERT_FALSE(clocks.ok());
  EXPECT_NE(clocks.status().message().find(missing), std::string::npos)
      << clocks.status().message();
  EXPECT_FALSE(AlignReports(std::vector<std::string>{}).ok());
}

// Summaries made by hand: the median resists one collective whose end is late on one host,
// and the error is the largest residual.
RankSource Source(std::int64_t rank, std::string host, std::vector<std::int64_t> ends) {
  RankSource source;
  source.identity.rank = rank;
  source.identity.path = "r" + std::to_string(rank);
  source.identity.hostname = host;
  source.identity.host_key = host;
  for (std::int64_t end : ends) source.collectives.push_back({"AllReduce", end - 10, end});
  return source;
}

TEST(AlignSources, MedianOfHostEndDifferencesWithTheLargestResidualAsError) {
  // Host b runs 1000 ns ahead; a host's end is its last rank's (rank 2's 1100, not rank 3's
  // 1090), and collective 2 ends 300 ns late there (a delayed completion record).
  std::vector<RankSource> sources = {
      Source(0, "a", {100, 200, 300}),
      Source(1, "a", {95, 190, 290}),
      Source(2, "b", {1100, 1200, 1600}),
      Source(3, "b", {1090, 1200, 1300}),
  };
  std::vector<RankClock> clocks = AlignSources(sources);
  ASSERT_EQ(clocks.size(), 4u);
  // Differences end_a - end_b: 100-1100, 200-1200, 300-1600 = -1000, -1000, -1300.
  EXPECT_EQ(clocks[2].offset_ns, -1000);
  EXPECT_EQ(clocks[2].error_ns, 300);
  EXPECT_EQ(clocks[3].offset_ns, -1000);
  EXPECT_EQ(clocks[3].method, "collectives (3 matched)");
  EXPECT_EQ(clocks[1].offset_ns, 0);
  EXPECT_EQ(clocks[1].method, "same host");
}

TEST(AlignSources, UnknownRanksComeAfterKnownOnesAndTheLowestRankIsTheReference) {
  std::vector<RankSource> sources = {Source(5, "b", {10}), Source(2, "a", {20}),
                                     Source(0, "c", {30})};
  sources[0].identity.rank.reset();
  std::vector<RankClock> clocks = AlignSources(sources);
  ASSERT_EQ(clocks.size(), 3u);
  EXPECT_EQ(clocks[0].rank, 0);
  EXPECT_EQ(clocks[0].method, "reference");
  EXPECT_EQ(clocks[1].rank, 2);
  EXPECT_EQ(clocks[1].offset_ns, 10);  // ends 30 on the reference, 20 here
  EXPECT_FALSE(clocks[2].rank.has_value());
  EXPECT_EQ(clocks[2].offset_ns, 20);
  EXPECT_EQ(clocks[2].index, 0u);
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
