#include "analysis/ranks/nccl_api_calls.h"

#include <gtest/gtest.h>

namespace gpuscope::analysis::ranks {
namespace {

model::NvtxRecord Range(std::string_view name, std::string_view domain) {
  model::NvtxRecord range;
  range.kind = model::NvtxKind::kPushPopRange;
  range.start = 100;
  range.end = 200;
  range.name = name;
  range.domain = domain;
  return range;
}

TEST(RecognizeNcclApiCall, NcclDomainRangesAreApiCallsWithoutSize) {
  std::optional<NcclApiCall> call = RecognizeNcclApiCall(Range("ncclAllReduce", "NCCL"));
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->name, "ncclAllReduce");
  EXPECT_FALSE(call->bytes.has_value());
  EXPECT_EQ(call->communicator, "");
  ASSERT_TRUE(RecognizeNcclApiCall(Range("ncclCommInitRank", "NCCL")).has_value());
  EXPECT_EQ(RecognizeNcclApiCall(Range("ncclAllReduce_impl", "NCCL"))->name, "ncclAllReduce");
}

TEST(RecognizeNcclApiCall, SizeAndCommunicatorFromADescribedMessage) {
  std::optional<NcclApiCall> call = RecognizeNcclApiCall(
      Range("ncclReduceScatter(): commHash 0x5f3a, stream 0x7f00, data_size 1048576, "
            "type_size 2, red_op 0, pid 12",
            ""));
  ASSERT_TRUE(call.has_value());
  EXPECT_EQ(call->name, "ncclReduceScatter");
  EXPECT_EQ(call->bytes, 1048576u);
  EXPECT_EQ(call->communicator, "0x5f3a");
}

TEST(RecognizeNcclApiCall, OtherRangesAreNot) {
  EXPECT_FALSE(RecognizeNcclApiCall(Range("ncclAllReduce", "")).has_value());  // default domain
  EXPECT_FALSE(RecognizeNcclApiCall(Range("nccl_step()", "")).has_value());
  EXPECT_FALSE(RecognizeNcclApiCall(Range("step 1", "NCCL")).has_value());
  EXPECT_FALSE(RecognizeNcclApiCall(Range("forward", "NCCL")).has_value());
  model::NvtxRecord mark = Range("ncclAllReduce", "NCCL");
  mark.kind = model::NvtxKind::kMark;
  EXPECT_FALSE(RecognizeNcclApiCall(mark).has_value());
  model::NvtxRecord open = Range("ncclAllReduce", "NCCL");
  open.end = 0;
  EXPECT_FALSE(RecognizeNcclApiCall(open).has_value());
  // A size that is not a number is unknown, not 0.
  EXPECT_FALSE(RecognizeNcclApiCall(Range("ncclSend(): data_size many", ""))->bytes.has_value());
}

}  // namespace
}  // namespace gpuscope::analysis::ranks
