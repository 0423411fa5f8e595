// The per-rank breakdown on small reports built by hand, where every number is known.
#include "analysis/ranks/rank_breakdown.h"

#include <gtest/gtest.h>

#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis::ranks {
namespace {

using store::testing::kUs;
using store::testing::ReportBuilder;

constexpr std::string_view kNcclAllReduceKernel =
    "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE";

// Times in us after the origin:
//   gemm      [1000, 1100)  stream 7, launched at 990
//   AllReduce [1050, 1200)  stream 8, launched at 995   (overlaps gemm for 50)
//   -- gap [1200, 1300): the next kernel's launch call began at 1250, after the gap did: host
//   gemm      [1300, 1400)  launched at 1250
//   -- gap [1400, 1500): the copy was issued at 1350, before the gap: other
//   copy      [1500, 1550)  issued at 1350
//   AllReduce [1550, 1700)  launched at 1360            (exposed: nothing overlaps it)
//   -- gap [1700, 1800): the memset's runtime call began at 1650 (before); the driver call
//      nested in it began at 1710, but the launch is the runtime call: other
//   memset    [1800, 1820)  issued at 1650 (runtime), 1710 (driver, nested)
std::string WriteKnownReport(const std::string& dir) {
  std::string path = dir + "/known.sqlite";
  ReportBuilder report(path);
  auto kernel = [&](std::string_view name, std::uint32_t stream, std::uint64_t start,
                    std::uint64_t end, std::uint64_t launch) {
    std::uint32_t id =
        report.Kernel(start * kUs, (end - start) * kUs, {.name = name, .stream = stream});
    report.Api("cudaLaunchKernel", launch * kUs, 5 * kUs, id);
  };
  kernel("_Z11gemm_kernelv", 7, 1000, 1100, 990);
  kernel(kNcclAllReduceKernel, 8, 1050, 1200, 995);
  kernel("_Z11gemm_kernelv", 7, 1300, 1400, 1250);
  std::uint32_t copy = report.Copy(1500 * kUs, 50 * kUs);
  report.Api("cudaMemcpyAsync", 1350 * kUs, 5 * kUs, copy);
  kernel(kNcclAllReduceKernel, 8, 1550, 1700, 1360);
  std::uint32_t memset = report.Memset(1800 * kUs, 20 * kUs);
  report.Api("cudaMemsetAsync", 1650 * kUs, 100 * kUs, memset);
  report.Api("cuMemsetD8Async", 1710 * kUs, 10 * kUs, memset,
             {.domain = model::ApiDomain::kDriver, .nested_in_runtime = true});
  // NCCL's API ranges: its own domain (no size), a build that prints the size, and ranges
  // that are not NCCL's.
  report.Range(model::NvtxKind::kPushPopRange, "ncclAllReduce", 990 * kUs, 8 * kUs,
               {.domain = "NCCL"});
  report.Range(model::NvtxKind::kPushPopRange,
               "ncclAllReduce(): commHash 0xabc, stream 0x1, data_size 4096, type_size 4, "
               "red_op 0, pid 7",
               1358 * kUs, 4 * kUs);
  report.Range(model::NvtxKind::kPushPopRange, "ncclGroupEnd", 1364 * kUs, 2 * kUs,
               {.domain = "NCCL"});
  report.Range(model::NvtxKind::kPushPopRange, "ncclish step", 900 * kUs, 900 * kUs);
  report.Range(model::NvtxKind::kPushPopRange, "step 1", 900 * kUs, 900 * kUs);
  EXPECT_TRUE(report.Close().ok());
  return path;
}

TEST(RankBreakdown, EveryNumberOfAKnownTimeline) {
  store::testing::ScratchDir dir;
  std::string path = WriteKnownReport(dir.path());
  StatusOr<RankCommunication> read = ReadRankCommunication(path, 0);
  ASSERT_TRUE(read.ok()) << read.status().message();
  const RankBreakdown& b = read->breakdown;
  EXPECT_EQ(b.span_ns, 820 * kUs);
  EXPECT_EQ(b.compute_ns, 200 * kUs);
  EXPECT_EQ(b.communication_ns, 300 * kUs);
  EXPECT_EQ(b.overlap_ns, 50 * kUs);
  EXPECT_EQ(b.exposed_ns, 250 * kUs);
  EXPECT_EQ(b.busy_ns, 520 * kUs);
  EXPECT_EQ(b.idle_ns, 300 * kUs);
  EXPECT_EQ(b.idle_host_ns, 100 * kUs);
  EXPECT_EQ(b.idle_other_ns, 200 * kUs);
  EXPECT_EQ(b.idle_host_ns + b.idle_other_ns, b.idle_ns);
  EXPECT_EQ(b.wait_on_ranks_ns, 0u);  // one report alone: filled in across ranks
}

TEST(RankBreakdown, NcclKernelsAndApiCalls) {
  store::testing::ScratchDir dir;
  std::string path = WriteKnownReport(dir.path());
  const std::int64_t offset = -1'234'567;
  StatusOr<RankCommunication> read = ReadRankCommunication(path, offset);
  ASSERT_TRUE(read.ok()) << read.status().message();
  // The NCCL kernels in start order, on the aligned axis.
  ASSERT_EQ(read->collectives.size(), 2u);
  auto origin = static_cast<std::int64_t>(store::testing::kTraceOrigin);
  EXPECT_EQ(read->collectives[0].kind, "AllReduce");
  EXPECT_EQ(read->collectives[0].start, origin + 1050 * 1000 + offset);
  EXPECT_EQ(read->collectives[1].end, origin + 1700 * 1000 + offset);
  ASSERT_EQ(read->nccl_kernels.size(), 1u);
  const OperationTotals& kernels = read->nccl_kernels.at("AllReduce");
  EXPECT_EQ(kernels.count, 2u);
  EXPECT_EQ(kernels.total_ns, 300 * kUs);
  EXPECT_EQ(kernels.min_ns, 150 * kUs);
  EXPECT_EQ(kernels.max_ns, 150 * kUs);
  // API calls: two ncclAllReduce (one with its size), one ncclGroupEnd; user ranges left out.
  ASSERT_EQ(read->nccl_api_calls.size(), 2u);
  const OperationTotals& all_reduce = read->nccl_api_calls.at("ncclAllReduce");
  EXPECT_EQ(all_reduce.count, 2u);
  EXPECT_EQ(all_reduce.total_ns, 12 * kUs);
  EXPECT_EQ(all_reduce.bytes, 4096u);
  EXPECT_EQ(all_reduce.without_bytes, 1u);
  EXPECT_EQ(read->nccl_api_calls.at("ncclGroupEnd").count, 1u);
}

TEST(RankBreakdown, NoGpuActivityIsAllZero) {
  store::testing::ScratchDir dir;
  std::string path = dir.path() + "/empty.sqlite";
  ReportBuilder report(path);
  report.Api("cudaMalloc", 10 * kUs, 5 * kUs, report.NextCorrelation());
  ASSERT_TRUE(report.Close().ok());
  StatusOr<RankCommunication> read = ReadRankCommunication(path, 0);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->breakdown.span_ns, 0u);
  EXPECT_EQ(read->breakdown.idle_ns, 0u);
  EXPECT_TRUE(read->collectives.empty());
}

TEST(RankBreakdown, AnUnreadableReportIsAnError) {
  store::testing::ScratchDir dir;
  StatusOr<RankCommunication> read = ReadRankCommunication(dir.path() + "/missing.sqlite", 0);
  EXPECT_FALSE(read.ok());
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
