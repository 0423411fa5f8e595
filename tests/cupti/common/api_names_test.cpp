#include "cupti/common/api_names.h"

#include <cupti.h>
#include <gtest/gtest.h>

namespace gpuscope::cupti {
namespace {

TEST(StripApiVersionSuffixTest, StripsVersionAndStreamSuffixes) {
  EXPECT_EQ(StripApiVersionSuffix("cudaMalloc_v3020"), "cudaMalloc");
  EXPECT_EQ(StripApiVersionSuffix("cuMemAlloc_v2"), "cuMemAlloc");
  EXPECT_EQ(StripApiVersionSuffix("cudaMemcpy_ptds_v7000"), "cudaMemcpy");
  EXPECT_EQ(StripApiVersionSuffix("cudaLaunchKernel_ptsz_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(StripApiVersionSuffix("cuMemcpyHtoD_v2_ptds"), "cuMemcpyHtoD");
  EXPECT_EQ(StripApiVersionSuffix("cuMemcpyAsync_ptsz"), "cuMemcpyAsync");
}

TEST(StripApiVersionSuffixTest, LeavesOtherNamesAlone) {
  EXPECT_EQ(StripApiVersionSuffix("cuDeviceGetAttribute"), "cuDeviceGetAttribute");
  EXPECT_EQ(StripApiVersionSuffix("cudaGraphLaunch"), "cudaGraphLaunch");
  // Digits that are part of the name, not a version token.
  EXPECT_EQ(StripApiVersionSuffix("cuMemcpy3D"), "cuMemcpy3D");
  EXPECT_EQ(StripApiVersionSuffix("cudaMemcpy2DToArray"), "cudaMemcpy2DToArray");
  // Never strip the whole name.
  EXPECT_EQ(StripApiVersionSuffix("_v2"), "_v2");
  EXPECT_EQ(StripApiVersionSuffix("_ptds"), "_ptds");
  EXPECT_EQ(StripApiVersionSuffix(""), "");
}

// The cache asks CUPTI itself (cuptiGetCallbackName works without a GPU): these are the
// names users see in nvprof's API summary.
TEST(ApiNameCacheTest, NamesComeFromCuptiWithoutSuffixes) {
  ApiNameCache cache;
  EXPECT_EQ(cache.Name(model::ApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020),
            "cudaMalloc");
  EXPECT_EQ(cache.Name(model::ApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_ptds_v7000),
            "cudaMemcpy");
  EXPECT_EQ(cache.Name(model::ApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
            "cudaLaunchKernel");
  EXPECT_EQ(cache.Name(model::ApiDomain::kDriver, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2),
            "cuMemAlloc");
  EXPECT_EQ(cache.Name(model::ApiDomain::kDriver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel),
            "cuLaunchKernel");
}

TEST(ApiNameCacheTest, ViewsStayValidAsTheCacheGrows) {
  ApiNameCache cache;
  std::string_view first =
      cache.Name(model::ApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020);
  for (std::uint32_t cbid = 1; cbid < 400; ++cbid) cache.Name(model::ApiDomain::kDriver, cbid);
  EXPECT_EQ(first, "cudaMalloc");
  EXPECT_EQ(
      first.data(),
      cache.Name(model::ApiDomain::kRuntime, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020).data())
      << "a cached name is looked up once";
}

TEST(ApiNameCacheTest, UnknownIdsGetAVisibleName) {
  ApiNameCache cache;
  EXPECT_EQ(cache.Name(model::ApiDomain::kDriver, 60000), "cuUnknownApi_60000");
  EXPECT_EQ(cache.Name(model::ApiDomain::kRuntime, 5000000), "cudaUnknownApi");
}

}  // namespace
}  // namespace gpuscope::cupti
