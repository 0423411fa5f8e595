#include "analysis/ranks/collectives.h"

#include <gtest/gtest.h>

namespace gpuscope::analysis::ranks {
namespace {

TEST(IsNcclKernel, RecognisesNcclKernelsMangledAndDemangled) {
  // NCCL 2.19+ as CUPTI reports it (mangled) and as the reader demangles it.
  EXPECT_TRUE(IsNcclKernel(
      "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE"));
  EXPECT_TRUE(
      IsNcclKernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
  EXPECT_TRUE(IsNcclKernel("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"));
  // NCCL 2.5 to 2.18, and the older names.
  EXPECT_TRUE(IsNcclKernel("_Z39ncclKernel_AllGather_RING_LL_Sum_int8_t12ncclWorkElem"));
  EXPECT_TRUE(IsNcclKernel("ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)"));
  EXPECT_TRUE(IsNcclKernel("void ncclAllReduceRingLLKernel_sum_f32(CollectiveArgs)"));
}

TEST(IsNcclKernel, LeavesOtherKernelsOut) {
  EXPECT_FALSE(IsNcclKernel("gemm_kernel"));
  EXPECT_FALSE(IsNcclKernel("_Z11gemm_kernelPfS_S_i"));
  EXPECT_FALSE(IsNcclKernel("elementwise_kernel(float*, int)"));
  // A kernel that merely mentions NCCL, and a host-side name without "Kernel".
  EXPECT_FALSE(IsNcclKernel("my_ncclDevKernel_AllReduce"));
  EXPECT_FALSE(IsNcclKernel("ncclAllReduce"));
  EXPECT_FALSE(IsNcclKernel(""));
  EXPECT_FALSE(IsNcclKernel("_Z"));
  EXPECT_FALSE(IsNcclKernel("_Z99ncclDevKernel_"));  // length past the end of the name
}

TEST(CollectiveKind, NamesTheCollective) {
  EXPECT_EQ(
      CollectiveKind("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
      "AllReduce");
  EXPECT_EQ(CollectiveKind(
                "_Z39ncclDevKernel_AllReduce_Sum_f32_RING_LL24ncclDevKernelArgsStorageILm4096EE"),
            "AllReduce");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
            "AllGather");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_ReduceScatter_Sum_bf16_RING_SIMPLE(x)"), "ReduceScatter");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_Reduce_Sum_f32_RING_LL(x)"), "Reduce");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_Broadcast_RING_LL(x)"), "Broadcast");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_SendRecv(x)"), "SendRecv");
  EXPECT_EQ(CollectiveKind("ncclKernel_Send_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"), "Send");
  EXPECT_EQ(CollectiveKind("ncclKernel_Recv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"), "Recv");
  EXPECT_EQ(CollectiveKind("void ncclAllReduceRingLLKernel_sum_f32(CollectiveArgs)"), "AllReduce");
  EXPECT_EQ(CollectiveKind("ncclDevKernel_Generic(ncclDevKernelArgsStorage<4096ul>)"), "Other");
  EXPECT_EQ(CollectiveKind("gemm_kernel"), "Other");
}

CollectiveEvent Event(const char* kind, std::int64_t start) { return {kind, start, start + 10}; }

TEST(MatchCollectives, MatchesTheKthOfEachKindOverTheCommonPrefix) {
  // Rank 1 recorded its events out of start order and one all-reduce fewer; rank 2 has an
  // all-gather the others lack (kinds are matched separately).
  std::vector<std::vector<CollectiveEvent>> ranks = {
      {Event("AllReduce", 100), Event("AllGather", 200), Event("AllReduce", 300),
       Event("AllReduce", 400)},
      {Event("AllReduce", 310), Event("AllGather", 210), Event("AllReduce", 110)},
      {Event("AllReduce", 120), Event("AllGather", 220), Event("AllReduce", 320),
       Event("AllReduce", 420), Event("AllGather", 520)},
  };
  std::vector<MatchedCollective> matched = MatchCollectives(ranks);
  ASSERT_EQ(matched.size(), 3u);
  // In the order of rank 0's starts: all-reduce 0, all-gather 0, all-reduce 1.
  EXPECT_EQ(matched[0].kind, "AllReduce");
  EXPECT_EQ(matched[0].ordinal, 0u);
  EXPECT_EQ(matched[0].event, (std::vector<std::size_t>{0, 2, 0}));
  EXPECT_EQ(matched[1].kind, "AllGather");
  EXPECT_EQ(matched[1].ordinal, 0u);
  EXPECT_EQ(matched[1].event, (std::vector<std::size_t>{1, 1, 1}));
  EXPECT_EQ(matched[2].kind, "AllReduce");
  EXPECT_EQ(matched[2].ordinal, 1u);
  EXPECT_EQ(matched[2].event, (std::vector<std::size_t>{2, 0, 2}));
  for (const MatchedCollective& collective : matched) {
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      EXPECT_EQ(ranks[r][collective.event[r]].kind, collective.kind);
    }
  }
}

TEST(MatchCollectives, KindMissingOnOneRankIsNotMatched) {
  std::vector<std::vector<CollectiveEvent>> ranks = {
      {Event("Send", 100), Event("AllReduce", 200)},
      {Event("AllReduce", 200)},
  };
  std::vector<MatchedCollective> matched = MatchCollectives(ranks);
  ASSERT_EQ(matched.size(), 1u);
  EXPECT_EQ(matched[0].kind, "AllReduce");
  EXPECT_EQ(matched[0].event, (std::vector<std::size_t>{1, 0}));
}

TEST(MatchCollectives, OneRankMatchesItselfAndNoRanksNothing) {
  std::vector<MatchedCollective> one =
      MatchCollectives({{Event("AllReduce", 5), Event("AllReduce", 1)}});
  ASSERT_EQ(one.size(), 2u);
  EXPECT_EQ(one[0].event, (std::vector<std::size_t>{1}));
  EXPECT_EQ(one[1].event, (std::vector<std::size_t>{0}));
  EXPECT_TRUE(MatchCollectives({}).empty());
  EXPECT_TRUE(MatchCollectives({{Event("AllReduce", 1)}, {}}).empty());
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
