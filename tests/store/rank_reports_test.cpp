// The synthetic multi-rank reports (store/testing/rank_reports.h) hold what the multi-rank
// analyses are tested against, read back through the production reader: every rank's
// identity, hosts told apart by boot id, clock samples on each host's clock, all-reduce
// kernels that end together in true time, the straggler arriving last by its delay.
#include "store/testing/rank_reports.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "store/report_reader.h"
#include "store_test_util.h"

namespace gpuscope::store {
namespace {

using testing::RankReportsSpec;

struct RankKernels {
  std::vector<KernelRow> all_reduce;  // in start order
  std::size_t compute = 0;
};

RankKernels ReadKernels(const ReportReader& reader) {
  RankKernels kernels;
  Status status = reader.ForEachKernel([&](const KernelRow& row) {
    if (row.record.mangled_name == testing::kNcclAllReduceKernel) {
      kernels.all_reduce.push_back(row);
    } else {
      ++kernels.compute;
    }
    return true;
  });
  EXPECT_TRUE(status.ok()) << status.message();
  EXPECT_FALSE(reader.damaged_rows().any()) << "every generated row lies within its run";
  return kernels;
}

RankReportsSpec EightRanksOnTwoHosts() {
  RankReportsSpec spec;
  spec.ranks = 8;
  spec.ranks_per_host = 4;
  spec.host_clock_offset_ns = {0, 1'500'000};
  spec.steps = 5;
  spec.kernels_per_step = 6;
  spec.straggler_rank = 5;
  spec.straggler_delay_ns = 200'000;
  return spec;
}

TEST(RankReports, IdentityHostsAndPathsInRankOrder) {
  test::TempDir dir;
  const RankReportsSpec spec = EightRanksOnTwoHosts();
  const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 8u);
  EXPECT_EQ(paths[0], dir.File("rank0.sqlite"));
  EXPECT_EQ(paths[7], dir.File("rank7.sqlite"));
  std::map<std::string, std::set<std::string>> boot_ids_by_host;
  for (int rank = 0; rank < spec.ranks; ++rank) {
    auto reader = test::OpenReport(paths[static_cast<std::size_t>(rank)]);
    ASSERT_NE(reader, nullptr);
    const ProcessInfo& process = reader->process();
    EXPECT_EQ(process.rank, rank);
    EXPECT_EQ(process.local_rank, rank % 4);
    EXPECT_EQ(process.world_size, 8);
    EXPECT_EQ(process.rank_variable, "RANK");
    EXPECT_EQ(process.hostname, "node" + std::to_string(rank / 4));
    EXPECT_FALSE(process.boot_id.empty());
    boot_ids_by_host[process.hostname].insert(process.boot_id);
    ASSERT_EQ(reader->devices().size(), 1u);
    EXPECT_EQ(reader->devices()[0].record.id, static_cast<std::uint32_t>(rank % 4));
  }
  ASSERT_EQ(boot_ids_by_host.size(), 2u);
  EXPECT_EQ(boot_ids_by_host["node0"].size(), 1u) << "one boot id per host";
  EXPECT_EQ(boot_ids_by_host["node1"].size(), 1u);
  EXPECT_NE(*boot_ids_by_host["node0"].begin(), *boot_ids_by_host["node1"].begin());

  // Zero-padded once there are more than ten ranks, so that names sort by rank.
  RankReportsSpec wide;
  wide.ranks = 12;
  EXPECT_EQ(testing::RankReportPath(wide, "/d", 3), "/d/rank03.sqlite");
}

TEST(RankReports, AllReducesEndTogetherInTrueTimeAndTheStragglerArrivesLast) {
  test::TempDir dir;
  const RankReportsSpec spec = EightRanksOnTwoHosts();
  const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 8u);
  std::vector<RankKernels> ranks;
  for (const std::string& path : paths) {
    auto reader = test::OpenReport(path);
    ASSERT_NE(reader, nullptr);
    ranks.push_back(ReadKernels(*reader));
    EXPECT_EQ(ranks.back().compute, static_cast<std::size_t>(spec.steps * spec.kernels_per_step));
    ASSERT_EQ(ranks.back().all_reduce.size(), static_cast<std::size_t>(spec.steps));
  }
  for (int step = 0; step < spec.steps; ++step) {
    SCOPED_TRACE("step " + std::to_string(step));
    std::set<model::Timestamp> true_ends;
    model::Timestamp latest_other_start = 0;
    model::Timestamp straggler_start = 0;
    for (int rank = 0; rank < spec.ranks; ++rank) {
      const model::KernelRecord& k =
          ranks[static_cast<std::size_t>(rank)].all_reduce[static_cast<std::size_t>(step)].record;
      // Undo the host's clock error: what the alignment must find.
      const model::Timestamp offset = rank < 4 ? 0 : 1'500'000;
      true_ends.insert(k.end - offset);
      if (rank == spec.straggler_rank) {
        straggler_start = k.start - offset;
      } else {
        latest_other_start = std::max(latest_other_start, k.start - offset);
      }
    }
    EXPECT_EQ(true_ends.size(), 1u) << "all ranks' all-reduce kernels end together";
    // The others' arrivals differ only by the kernels' jitter (a few us); the straggler's
    // delay comes on top.
    EXPECT_GT(straggler_start, latest_other_start + 150'000);
    EXPECT_LT(straggler_start, latest_other_start + 250'000);
    EXPECT_EQ(*true_ends.begin(), straggler_start + static_cast<model::Timestamp>(spec.kernel_ns))
        << "the last arrival plus the all-reduce's own time";
  }
}

TEST(RankReports, ClockSamplesOnEachHostsClocks) {
  test::TempDir dir;
  const RankReportsSpec spec = EightRanksOnTwoHosts();
  const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 8u);
  std::map<int, std::set<std::int64_t>> monotonic_minus_cupti;  // by host
  for (int rank = 0; rank < spec.ranks; ++rank) {
    auto reader = test::OpenReport(paths[static_cast<std::size_t>(rank)]);
    ASSERT_NE(reader, nullptr);
    const std::vector<ClockSample>& samples = reader->ClockSamples();
    // The start's host pair alone (as the injection: no context yet), the end's host pair and
    // the rank's device's GPU pair.
    ASSERT_GE(samples.size(), 3u);
    EXPECT_FALSE(samples.front().device_id.has_value());
    EXPECT_EQ(samples.front().cupti_ns, reader->process().start);
    EXPECT_LE(samples.back().cupti_ns, reader->process().end);
    std::size_t device_samples = 0;
    for (const ClockSample& sample : samples) {
      EXPECT_EQ(sample.realtime_ns - static_cast<std::int64_t>(sample.cupti_ns), 40);
      monotonic_minus_cupti[rank / 4].insert(sample.monotonic_ns -
                                             static_cast<std::int64_t>(sample.cupti_ns));
      if (!sample.device_id.has_value()) continue;
      ++device_samples;
      EXPECT_EQ(*sample.device_id, static_cast<std::uint32_t>(rank % 4));
      ASSERT_TRUE(sample.gpu_ns.has_value());
      EXPECT_EQ(sample.gpu_uncertainty_ns, testing::kGpuReadWindowNs / 2);
    }
    EXPECT_EQ(device_samples * 2 + 1, samples.size());
  }
  // One host's ranks share its boot clock; the hosts' boot clocks differ.
  ASSERT_EQ(monotonic_minus_cupti.size(), 2u);
  EXPECT_EQ(monotonic_minus_cupti[0].size(), 1u);
  EXPECT_EQ(monotonic_minus_cupti[1].size(), 1u);
  EXPECT_NE(*monotonic_minus_cupti[0].begin(), *monotonic_minus_cupti[1].begin());
}

TEST(RankReports, NvtxStepsAndNcclRanges) {
  test::TempDir dir;
  RankReportsSpec spec = EightRanksOnTwoHosts();
  spec.ranks = 2;
  const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 2u);
  auto reader = test::OpenReport(paths[1]);
  ASSERT_NE(reader, nullptr);
  std::vector<std::string> steps;
  int nccl_ranges = 0;
  Status status = reader->ForEachNvtx([&](const model::NvtxRecord& range) {
    if (range.domain == "NCCL") {
      EXPECT_EQ(range.name, "ncclAllReduce");
      ++nccl_ranges;
    } else {
      steps.emplace_back(range.name);
    }
    return true;
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(steps, (std::vector<std::string>{"step 0", "step 1", "step 2", "step 3", "step 4"}));
  EXPECT_EQ(nccl_ranges, spec.steps);
  // Every kernel has its launch call, by correlation id.
  std::set<std::uint32_t> launches;
  status = reader->ForEachApiCall([&](const ApiCallRow& call) {
    EXPECT_EQ(call.record.name, "cudaLaunchKernel");
    launches.insert(call.record.correlation_id);
    return true;
  });
  ASSERT_TRUE(status.ok()) << status.message();
  std::size_t kernels = 0;
  status = reader->ForEachKernel([&](const KernelRow& row) {
    ++kernels;
    EXPECT_TRUE(launches.count(row.record.correlation_id)) << row.record.correlation_id;
    return true;
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(kernels, launches.size());
}

TEST(RankReports, WithoutNcclNoCollectives) {
  test::TempDir dir;
  RankReportsSpec spec = EightRanksOnTwoHosts();
  spec.ranks = 2;
  spec.nccl = false;
  const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
  ASSERT_EQ(paths.size(), 2u);
  auto reader = test::OpenReport(paths[0]);
  ASSERT_NE(reader, nullptr);
  const RankKernels kernels = ReadKernels(*reader);
  EXPECT_TRUE(kernels.all_reduce.empty());
  EXPECT_EQ(kernels.compute, static_cast<std::size_t>(spec.steps * spec.kernels_per_step));
}

TEST(RankReports, SameSeedSameReportsOtherSeedOtherJitter) {
  auto first_kernel_ends = [](const RankReportsSpec& spec) {
    test::TempDir dir;
    std::vector<model::Timestamp> ends;
    const std::vector<std::string> paths = testing::WriteRankReports(spec, dir.path());
    EXPECT_EQ(paths.size(), 2u);
    if (paths.empty()) return ends;
    auto reader = test::OpenReport(paths[1]);
    if (reader == nullptr) return ends;
    EXPECT_TRUE(reader
                    ->ForEachKernel([&](const KernelRow& row) {
                      ends.push_back(row.record.end);
                      return true;
                    })
                    .ok());
    return ends;
  };
  RankReportsSpec spec = EightRanksOnTwoHosts();
  spec.ranks = 2;
  const std::vector<model::Timestamp> a = first_kernel_ends(spec);
  EXPECT_EQ(first_kernel_ends(spec), a);
  spec.seed = 2;
  EXPECT_NE(first_kernel_ends(spec), a);
}

TEST(RankReports, ExistingReportIsNotOverwrittenUnlessAsked) {
  test::TempDir dir;
  RankReportsSpec spec;
  spec.ranks = 1;
  spec.steps = 1;
  ASSERT_EQ(testing::WriteRankReports(spec, dir.path()).size(), 1u);
  auto again = testing::TryWriteRankReports(spec, dir.path());
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("rank0.sqlite"), std::string::npos)
      << again.status().message();
  spec.overwrite = true;
  EXPECT_EQ(testing::WriteRankReports(spec, dir.path()).size(), 1u);
  spec.ranks = 0;
  EXPECT_FALSE(testing::TryWriteRankReports(spec, dir.path()).ok());
}

}  // namespace
}  // namespace gpuscope::store
