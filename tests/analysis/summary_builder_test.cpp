// The nvprof summary's rows built from a report's rows (summary_builder.h): which calls count,
// the order, names across reports, and what cannot be timed. How they are printed is
// tests/render/nvprof_summary_format_test.cpp.
#include "analysis/summary_builder.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "store/testing/reader_rows.h"

namespace gpuscope::analysis {
namespace {

using model::CopyKind;
using store::testing::Api;
using store::testing::Driver;
using store::testing::Kernel;
using store::testing::Memcpy;
using store::testing::Memset;

constexpr std::uint64_t kSummaryT0 = 1'700'000'000'000'000'000;  // an absolute CUPTI time

// Made by cudaMalloc on the program's behalf: nvprof counts only the outer call.
TEST(NvprofSummary, NestedDriverCallsAreNotCounted) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddApiCall(Api(1, "cudaMalloc", kSummaryT0, kSummaryT0 + 165'860'000));
  builder.AddApiCall(Driver(2, "cuDeviceGetAttribute", kSummaryT0 + 10, kSummaryT0 + 10 + 80));
  builder.AddApiCall(
      Driver(4, "cuMemAlloc_v2", kSummaryT0 + 100, kSummaryT0 + 5'000'100, /*nested=*/true));
  NvprofSummary summary = builder.Build();
  for (const SummaryRow& row : summary.api_calls) EXPECT_NE(row.name, "cuMemAlloc_v2");
  ASSERT_EQ(summary.api_calls.size(), 2u);
}

TEST(NvprofSummary, SortsByTotalTimeThenName) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "short", kSummaryT0, kSummaryT0 + 10));
  builder.AddKernel(Kernel(2, "long", kSummaryT0, kSummaryT0 + 50));
  builder.AddKernel(Kernel(3, "many", kSummaryT0, kSummaryT0 + 20));
  builder.AddKernel(Kernel(3, "many", kSummaryT0 + 100, kSummaryT0 + 120));
  builder.AddKernel(Kernel(3, "many", kSummaryT0 + 200, kSummaryT0 + 220));
  builder.AddKernel(Kernel(4, "tie_b", kSummaryT0, kSummaryT0 + 10));
  builder.AddMemset(Memset(kSummaryT0, kSummaryT0 + 30));
  NvprofSummary summary = builder.Build();
  std::vector<std::string> names;
  for (const SummaryRow& row : summary.gpu_activities) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"many", "long", "[CUDA memset]", "short", "tie_b"}));
  EXPECT_EQ(summary.gpu_activities[0].time.count, 3u);
  EXPECT_EQ(summary.gpu_activities[0].time.total, 60u);
  EXPECT_EQ(summary.gpu_activities[0].time.min, 20u);
  EXPECT_EQ(summary.gpu_activities[0].time.max, 20u);
}

TEST(NvprofSummary, GroupsEqualNamesAcrossReports) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();  // rank 0: id 5 is "gemm"
  builder.AddKernel(Kernel(5, "gemm", kSummaryT0, kSummaryT0 + 100));
  builder.AddApiCall(Api(9, "cudaLaunchKernel", kSummaryT0, kSummaryT0 + 7));
  builder.BeginReport();  // rank 1 numbers its strings differently: id 5 is "reduce"
  builder.AddKernel(Kernel(5, "reduce", kSummaryT0, kSummaryT0 + 40));
  builder.AddKernel(Kernel(2, "gemm", kSummaryT0, kSummaryT0 + 300));
  builder.AddApiCall(Api(1, "cudaLaunchKernel", kSummaryT0, kSummaryT0 + 3));
  NvprofSummary summary = builder.Build();
  ASSERT_EQ(summary.gpu_activities.size(), 2u);
  EXPECT_EQ(summary.gpu_activities[0].name, "gemm");
  EXPECT_EQ(summary.gpu_activities[0].time.count, 2u);
  EXPECT_EQ(summary.gpu_activities[0].time.total, 400u);
  EXPECT_EQ(summary.gpu_activities[1].name, "reduce");
  EXPECT_EQ(summary.gpu_activities[1].time.total, 40u);
  ASSERT_EQ(summary.api_calls.size(), 1u);
  EXPECT_EQ(summary.api_calls[0].time.count, 2u);
  EXPECT_EQ(summary.api_calls[0].time.min, 3u);
  EXPECT_EQ(summary.api_calls[0].time.max, 7u);
}

TEST(NvprofSummary, DemanglingOffUsesMangledNames) {
  NvprofSummaryBuilder builder(/*demangle=*/false);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "add(int, int, int*)", kSummaryT0, kSummaryT0 + 5, "_Z3addiiPi"));
  NvprofSummary summary = builder.Build();
  ASSERT_EQ(summary.gpu_activities.size(), 1u);
  EXPECT_EQ(summary.gpu_activities[0].name, "_Z3addiiPi");
}

TEST(NvprofSummary, UntimedActivitiesAreCountedNotTimed) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  builder.AddKernel(Kernel(1, "k", 0, 0));               // CUPTI gave no timestamps
  builder.AddKernel(Kernel(1, "k", kSummaryT0 + 10, kSummaryT0 + 5));  // end before start: corrupt
  builder.AddMemcpy(Memcpy(CopyKind::kHtoD, 0, 0));
  builder.AddMemset(Memset(kSummaryT0, 0));
  builder.AddKernel(Kernel(1, "k", kSummaryT0, kSummaryT0 + 8));
  builder.AddApiCall(Api(1, "cudaFree", kSummaryT0, 0));
  NvprofSummary summary = builder.Build();
  EXPECT_EQ(summary.untimed_gpu_activities, 4u);
  EXPECT_EQ(summary.untimed_api_calls, 1u);
  ASSERT_EQ(summary.gpu_activities.size(), 1u);
  EXPECT_EQ(summary.gpu_activities[0].time.count, 1u);
  EXPECT_EQ(summary.gpu_activities[0].time.total, 8u);
  EXPECT_TRUE(summary.api_calls.empty());
}

TEST(NvprofSummary, EveryCopyKindHasNvprofsName) {
  NvprofSummaryBuilder builder(true);
  builder.BeginReport();
  std::uint64_t duration = 1;
  for (CopyKind kind : {CopyKind::kHtoD, CopyKind::kDtoH, CopyKind::kDtoD, CopyKind::kHtoH,
                        CopyKind::kPtoP, CopyKind::kHtoA, CopyKind::kAtoH, CopyKind::kAtoA,
                        CopyKind::kAtoD, CopyKind::kDtoA, CopyKind::kUnknown}) {
    builder.AddMemcpy(Memcpy(kind, kSummaryT0, kSummaryT0 + 100 * duration++));
  }
  // A kind from a newer schema than this build knows is still listed, as unknown.
  builder.AddMemcpy(Memcpy(static_cast<CopyKind>(42), kSummaryT0, kSummaryT0 + 5));
  std::vector<std::string> names;
  for (const SummaryRow& row : builder.Build().gpu_activities) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{
                       "[CUDA memcpy Unknown]", "[CUDA memcpy DtoA]", "[CUDA memcpy AtoD]",
                       "[CUDA memcpy AtoA]", "[CUDA memcpy AtoH]", "[CUDA memcpy HtoA]",
                       "[CUDA memcpy PtoP]", "[CUDA memcpy HtoH]", "[CUDA memcpy DtoD]",
                       "[CUDA memcpy DtoH]", "[CUDA memcpy HtoD]"}));
}

}  // namespace
}  // namespace gpuscope::analysis
