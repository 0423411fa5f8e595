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
RankReportsSpec SixtyFourRanksOnEightHosts() {
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
  RankReportsSpec spec = SixtyFourRanksOnEightHosts();
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
      AlignReports({dir + "h100_nvtx_ranges.sqlite", dir + "h100_add.sqlite"});
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  ASSERT_EQ(clocks->size(), 2u);
  EXPECT_EQ(clocks.value()[0].path, dir + "h100_add.sqlite");
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

namespace gpuscope::analysis::ranks {
namespace {

// GPU clock pairs in the shape the injection records them (store/testing/rank_reports.h: the
// host pair alone at the start, then per flush a host pair and a GPU pair whose host clocks
// are the middle of a 12 us window, +- 6 us): each rank's GPU clock offset from CLOCK_REALTIME
// and its spread over a run of several seconds (the generator's GPU timer drifts by 2 ppm).
TEST(AlignReports, GpuClockPairsGiveEachRanksGpuOffsetAndItsSpread) {
  ScratchDir dir;
  RankReportsSpec spec;
  spec.ranks = 4;
  spec.ranks_per_host = 2;
  spec.host_clock_offset_ns = {0, 3'000'000};
  spec.steps = 6;
  spec.kernels_per_step = 2;
  spec.kernel_ns = 400'000'000;  // ~0.8 s per step: a GPU pair at most flushes
  std::vector<std::string> paths = store::testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 4u);
  StatusOr<std::vector<RankClock>> clocks = AlignReports(paths);
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  for (int r = 0; r < 4; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    auto reader = store::ReportReader::Open(paths[r]);
    ASSERT_TRUE(reader.ok()) << reader.status().message();
    const std::vector<store::ClockSample>& samples = reader.value()->ClockSamples();
    ASSERT_FALSE(samples.empty());
    EXPECT_FALSE(samples.front().device_id.has_value()) << "the start sample is the host's only";
    std::vector<const store::ClockSample*> pairs;
    for (const store::ClockSample& sample : samples) {
      if (sample.device_id) pairs.push_back(&sample);
    }
    ASSERT_GE(pairs.size(), 4u) << "GPU pairs at the flushes and at the end";
    const std::int64_t first_elapsed = pairs.front()->monotonic_ns - samples.front().monotonic_ns;
    const std::int64_t last_elapsed = pairs.back()->monotonic_ns - samples.front().monotonic_ns;
    for (const store::ClockSample* pair : pairs) {
      EXPECT_EQ(pair->device_id, static_cast<std::uint32_t>(r % 2));
      EXPECT_EQ(pair->gpu_uncertainty_ns, store::testing::kGpuReadWindowNs / 2);
    }
    ClockSummary summary = SummarizeClockSamples(samples);
    EXPECT_EQ(summary.gpu_pairs, pairs.size());
    EXPECT_EQ(summary.gpu_uncertainty, store::testing::kGpuReadWindowNs / 2);
    // The offset: 700 + 100 per local rank, plus the drift up to the middle sample.
    const RankClock& clock = clocks.value()[r];
    ASSERT_TRUE(clock.gpu_minus_realtime.has_value());
    EXPECT_GE(*clock.gpu_minus_realtime, store::testing::GpuClockOffsetNs(r % 2, first_elapsed));
    EXPECT_LE(*clock.gpu_minus_realtime, store::testing::GpuClockOffsetNs(r % 2, last_elapsed));
    // The spread: the drift between the first and the last pair (2 ns per ms, +- 1 ns of the
    // generator's rounding), whatever the host's clock error (host 1 is 3 ms off).
    ASSERT_TRUE(clock.gpu_spread.has_value());
    const std::int64_t drift = (last_elapsed - first_elapsed) / 500'000;
    EXPECT_GT(drift, 4'000) << "the run spans seconds";
    EXPECT_NEAR(static_cast<double>(*clock.gpu_spread), static_cast<double>(drift), 1.0);
  }
}

// Reports without GPU pairs (the host pair only, as before them) leave the GPU columns empty.
TEST(AlignReports, ReportsWithoutGpuPairsHaveNoGpuOffset) {
  ScratchDir dir;
  store::testing::ReportBuilder::Options options;
  options.rank = 0;
  store::testing::ReportBuilder report(dir.File("host.sqlite"), options);
  report.ClockSample(0, 2'000).ClockSample(1'000'000, 2'000);
  ASSERT_TRUE(report.Close().ok());
  StatusOr<std::vector<RankClock>> clocks = AlignReports({dir.File("host.sqlite")});
  ASSERT_TRUE(clocks.ok()) << clocks.status().message();
  EXPECT_FALSE(clocks.value()[0].gpu_minus_realtime.has_value());
  EXPECT_FALSE(clocks.value()[0].gpu_spread.has_value());
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
