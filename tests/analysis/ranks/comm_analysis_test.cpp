// The communication analysis and the rank rules over small jobs built by hand, where the
// waits, the straggler's cost and the imbalance are known exactly.
#include "analysis/ranks/comm_analysis.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/ranks/comm_tables.h"
#include "find_finding.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::ranks {
namespace {

using store::testing::kUs;
using store::testing::ReportBuilder;

constexpr std::string_view kAllReduce =
    "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";

// Every step of every rank: a gemm of `compute_us` from the step's start, then the rank
// arrives at its all-reduce (when its gemm ends, plus `late_us` on the late rank), and every
// rank's all-reduce ends together 500 us after the last arrival. Steps are 4 ms apart.
struct Job {
  int ranks = 4;
  int steps = 10;
  std::uint64_t compute_us = 1000;
  int heavy_rank = -1;  // computes `heavy_us` more in every step
  std::uint64_t heavy_us = 0;
  int late_rank = -1;  // arrives `late_us` late in every step
  std::uint64_t late_us = 0;
  bool hide_communication = false;  // a second gemm on another stream covers each all-reduce
};

std::vector<RankClock> WriteJob(const Job& job, const std::string& dir) {
  std::vector<RankClock> clocks;
  for (int r = 0; r < job.ranks; ++r) {
    std::string path = dir + "/rank" + std::to_string(r) + ".sqlite";
    ReportBuilder::Options options;
    options.pid = 1000 + static_cast<std::uint32_t>(r);
    options.hostname = "node0";
    ReportBuilder report(path, options);
    for (int s = 0; s < job.steps; ++s) {
      std::uint64_t base = 100 + static_cast<std::uint64_t>(s) * 4000;
      auto compute = [&](int rank) {
        return job.compute_us + (rank == job.heavy_rank ? job.heavy_us : 0);
      };
      auto arrival = [&](int rank) {
        return base + compute(rank) + (rank == job.late_rank ? job.late_us : 0);
      };
      std::uint64_t last_arrival = 0;
      for (int other = 0; other < job.ranks; ++other) {
        last_arrival = std::max(last_arrival, arrival(other));
      }
      std::uint32_t gemm = report.Kernel(base * kUs, compute(r) * kUs, {.name = "_Z4gemmv"});
      report.Api("cudaLaunchKernel", (base - 50) * kUs, 5 * kUs, gemm);
      std::uint64_t start = arrival(r);
      std::uint64_t end = last_arrival + 500;
      std::uint32_t nccl =
          report.Kernel(start * kUs, (end - start) * kUs, {.name = kAllReduce, .stream = 9});
      report.Api("cudaLaunchKernel", (base - 40) * kUs, 5 * kUs, nccl);
      if (job.hide_communication) {
        std::uint32_t cover =
            report.Kernel(start * kUs, (end - start) * kUs, {.name = "_Z5otherv", .stream = 11});
        report.Api("cudaLaunchKernel", (base - 30) * kUs, 5 * kUs, cover);
      }
    }
    EXPECT_TRUE(report.Close().ok());
    clocks.push_back({path, r, "node0", options.pid, 0, 0, "reference", static_cast<std::size_t>(r),
                      std::nullopt, std::nullopt});
  }
  return clocks;
}

TEST(CommAnalysis, NamesTheStragglerWithTheTimeTheOthersLost) {
  store::testing::ScratchDir dir;
  Job job;
  job.late_rank = 2;
  job.late_us = 300;
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(WriteJob(job, dir.path()), 2);
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  EXPECT_EQ(analysis->matched_collectives, 10u);
  // Every other rank waits 300 us per step; the late one never waits.
  for (int r = 0; r < job.ranks; ++r) {
    EXPECT_EQ(analysis->ranks[r].breakdown.wait_on_ranks_ns, r == 2 ? 0u : 10 * 300 * kUs) << r;
  }
  EXPECT_EQ(analysis->ranks[2].arrived_last, 10u);
  const std::uint64_t lost = 300 * kUs * 10 * 3;  // delay x steps x (ranks - 1)
  EXPECT_EQ(analysis->ranks[2].others_lost_ns, lost);
  const Finding* straggler = FindRule(*analysis, "rank_straggler");
  ASSERT_NE(straggler, nullptr);
  EXPECT_EQ(straggler->time_ns, lost);
  EXPECT_EQ(straggler->occurrences, 10u);
  EXPECT_NE(straggler->message.find("rank 2 (node0"), std::string::npos) << straggler->message;
  EXPECT_NE(straggler->message.find("10 of 10 matched collectives"), std::string::npos)
      << straggler->message;
  EXPECT_NE(straggler->message.find("10 AllReduce"), std::string::npos) << straggler->message;
  EXPECT_NE(straggler->message.find("9.0000ms"), std::string::npos) << straggler->message;
  // Arriving late is not computing more.
  EXPECT_EQ(FindRule(*analysis, "rank_imbalance"), nullptr);
}

TEST(CommAnalysis, NoStragglerWhenAllArriveTogether) {
  store::testing::ScratchDir dir;
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(WriteJob(Job(), dir.path()));
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  EXPECT_EQ(analysis->matched_collectives, 10u);
  for (const RankResult& rank : analysis->ranks) {
    EXPECT_EQ(rank.breakdown.wait_on_ranks_ns, 0u);
    EXPECT_EQ(rank.arrived_last, 0u);
  }
  EXPECT_EQ(FindRule(*analysis, "rank_straggler"), nullptr);
  EXPECT_EQ(FindRule(*analysis, "rank_imbalance"), nullptr);
}

TEST(CommAnalysis, FindsComputeImbalance) {
  store::testing::ScratchDir dir;
  Job job;
  job.heavy_rank = 1;
  job.heavy_us = 500;  // 50% above the median rank
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(WriteJob(job, dir.path()));
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  EXPECT_EQ(analysis->ranks[1].breakdown.compute_ns, 10 * 1500 * kUs);
  EXPECT_EQ(analysis->ranks[0].breakdown.compute_ns, 10 * 1000 * kUs);
  const Finding* imbalance = FindRule(*analysis, "rank_imbalance");
  ASSERT_NE(imbalance, nullptr);
  EXPECT_EQ(imbalance->est_gain_ns, 10 * 500 * kUs);
  EXPECT_NE(imbalance->message.find("rank 1 (node0"), std::string::npos) << imbalance->message;
  EXPECT_NE(imbalance->message.find("50.0%"), std::string::npos) << imbalance->message;
}

TEST(CommAnalysis, SmallImbalanceIsNoFinding) {
  store::testing::ScratchDir dir;
  Job job;
  job.heavy_rank = 3;
  job.heavy_us = 90;  // 9%: within the noise of identical work
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(WriteJob(job, dir.path()));
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  EXPECT_EQ(FindRule(*analysis, "rank_imbalance"), nullptr);
}

TEST(CommAnalysis, ExposedCommunicationUnlessComputeHidesIt) {
  store::testing::ScratchDir dir;
  StatusOr<CommAnalysis> exposed = AnalyzeCommunication(WriteJob(Job(), dir.path()));
  ASSERT_TRUE(exposed.ok()) << exposed.status().message();
  // Per step: 500 us of all-reduce after a 1000 us gemm, nothing overlapping it.
  EXPECT_EQ(exposed->ranks[0].breakdown.exposed_ns, 10 * 500 * kUs);
  const Finding* finding = FindRule(*exposed, "exposed_communication");
  ASSERT_NE(finding, nullptr);
  EXPECT_EQ(finding->occurrences, 4u);
  EXPECT_NE(finding->message.find("4 of 4 ranks"), std::string::npos) << finding->message;

  store::testing::ScratchDir hidden_dir;
  Job hidden;
  hidden.hide_communication = true;
  StatusOr<CommAnalysis> overlapped = AnalyzeCommunication(WriteJob(hidden, hidden_dir.path()));
  ASSERT_TRUE(overlapped.ok()) << overlapped.status().message();
  EXPECT_EQ(overlapped->ranks[0].breakdown.overlap_ns, 10 * 500 * kUs);
  EXPECT_EQ(overlapped->ranks[0].breakdown.exposed_ns, 0u);
  EXPECT_EQ(FindRule(*overlapped, "exposed_communication"), nullptr);
}

TEST(CommAnalysis, TablesCarryTheNumbers) {
  store::testing::ScratchDir dir;
  Job job;
  job.late_rank = 0;
  job.late_us = 200;
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(WriteJob(job, dir.path()));
  ASSERT_TRUE(analysis.ok()) << analysis.status().message();
  StatsTable ranks = RankCommSumTable(*analysis);
  EXPECT_EQ(ranks.name, "rank_comm_sum");
  ASSERT_EQ(ranks.rows.size(), 4u);
  EXPECT_EQ(ranks.columns.back().header, "Wait on ranks (ns)");
  EXPECT_EQ(ranks.rows[1].back().integer, 10 * 200 * kUs);
  EXPECT_EQ(ranks.rows[1][0].integer, 1u);  // Rank
  StatsTable nccl = NcclSumTable(*analysis);
  ASSERT_EQ(nccl.rows.size(), 1u);  // AllReduce kernels; no NCCL API ranges in these reports
  EXPECT_EQ(nccl.rows[0][0].text, "AllReduce");
  EXPECT_EQ(nccl.rows[0][2].integer, 40u);  // 4 ranks x 10 steps
  EXPECT_TRUE(nccl.rows[0].back().empty);   // kernels carry no size
  std::vector<std::string> notes = CommunicationNotes(*analysis);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("no NCCL API calls recorded"), std::string::npos) << notes[0];
}

TEST(CommAnalysis, AReportThatCannotBeReadIsAnError) {
  store::testing::ScratchDir dir;
  std::vector<RankClock> clocks = WriteJob(Job(), dir.path());
  clocks[2].path = dir.path() + "/missing.sqlite";
  StatusOr<CommAnalysis> analysis = AnalyzeCommunication(clocks);
  ASSERT_FALSE(analysis.ok());
  EXPECT_NE(analysis.status().message().find("missing.sqlite"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
