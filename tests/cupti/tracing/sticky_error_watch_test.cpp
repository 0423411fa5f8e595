// The sticky-error watch with real CUpti_CallbackData structs, as CUPTI hands them to the
// callback: a runtime call and the driver call it makes both return the error, and the
// runtime call's exit is the one reported, once per process.
#include "cupti/tracing/sticky_error_watch.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <thread>

namespace gpuscope::cupti {
namespace {

class StickyErrorWatchTest : public ::testing::Test {
 protected:
  void SetUp() override { ForgetStickyErrorForTesting(); }
  void TearDown() override { ForgetStickyErrorForTesting(); }
};

CUpti_CallbackData Site(CUpti_ApiCallbackSite site, const char* name, const void* result) {
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.functionName = name;
  data.functionReturnValue = const_cast<void*>(result);  // CUPTI's field is not const
  return data;
}

TEST_F(StickyErrorWatchTest, WatchesTheCallsThatWaitNotLaunches) {
  EXPECT_TRUE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                       CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020));
  EXPECT_TRUE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                       CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize));
  EXPECT_TRUE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                       CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoH_v2));
  EXPECT_FALSE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
  EXPECT_FALSE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020));
  EXPECT_FALSE(IsStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RESOURCE,
                                        CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020));
}

TEST_F(StickyErrorWatchTest, TheOutermostCallReportsTheErrorOnce) {
  const cudaError_t runtime_result = cudaErrorIllegalAddress;
  const CUresult driver_result = CUDA_ERROR_ILLEGAL_ADDRESS;
  const char* runtime = "cudaDeviceSynchronize";
  const char* driver = "cuCtxSynchronize";
  // cudaDeviceSynchronize enters, makes cuCtxSynchronize, which fails first.
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        Site(CUPTI_API_ENTER, runtime, nullptr)));
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                        Site(CUPTI_API_ENTER, driver, nullptr)));
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                        Site(CUPTI_API_EXIT, driver, &driver_result)))
      << "the runtime call's record is complete only when it returns";
  std::optional<StickyErrorCall> error = OnStickyErrorWatchedCall(
      CUPTI_CB_DOMAIN_RUNTIME_API, Site(CUPTI_API_EXIT, runtime, &runtime_result));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->api, "cudaDeviceSynchronize");
  EXPECT_EQ(error->domain, model::ApiDomain::kRuntime);
  EXPECT_EQ(error->code, 700);

  // Every later call returns the same error: it is the same event.
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        Site(CUPTI_API_ENTER, runtime, nullptr)));
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        Site(CUPTI_API_EXIT, runtime, &runtime_result)));
}

TEST_F(StickyErrorWatchTest, ADriverCallOfItsOwnReportsWithTheDriversDomain) {
  const CUresult result = CUDA_ERROR_ASSERT;
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                        Site(CUPTI_API_ENTER, "cuStreamSynchronize", nullptr)));
  std::optional<StickyErrorCall> error = OnStickyErrorWatchedCall(
      CUPTI_CB_DOMAIN_DRIVER_API, Site(CUPTI_API_EXIT, "cuStreamSynchronize", &result));
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->domain, model::ApiDomain::kDriver);
  EXPECT_EQ(error->code, 710);
}

TEST_F(StickyErrorWatchTest, OtherErrorsAndMissingResultsAreNotSticky) {
  const cudaError_t not_ready = cudaErrorNotReady;  // a query of a busy stream
  const cudaError_t out_of_memory = cudaErrorMemoryAllocation;
  for (const cudaError_t* result : {&not_ready, &out_of_memory}) {
    OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                             Site(CUPTI_API_ENTER, "cudaStreamQuery", nullptr));
    EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                          Site(CUPTI_API_EXIT, "cudaStreamQuery", result)));
  }
  OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                           Site(CUPTI_API_ENTER, "cudaStreamQuery", nullptr));
  EXPECT_FALSE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                        Site(CUPTI_API_EXIT, "cudaStreamQuery", nullptr)));
  // Still reported when it comes.
  const cudaError_t failed = cudaErrorLaunchFailure;
  OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                           Site(CUPTI_API_ENTER, "cudaStreamQuery", nullptr));
  EXPECT_TRUE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                                       Site(CUPTI_API_EXIT, "cudaStreamQuery", &failed)));
}

TEST_F(StickyErrorWatchTest, NestingIsFollowedPerThread) {
  // Another thread inside a watched call does not make this thread's call nested.
  std::thread other([] {
    OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_RUNTIME_API,
                             Site(CUPTI_API_ENTER, "cudaStreamSynchronize", nullptr));
  });
  other.join();
  const CUresult result = CUDA_ERROR_LAUNCH_FAILED;
  OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                           Site(CUPTI_API_ENTER, "cuEventSynchronize", nullptr));
  EXPECT_TRUE(OnStickyErrorWatchedCall(CUPTI_CB_DOMAIN_DRIVER_API,
                                       Site(CUPTI_API_EXIT, "cuEventSynchronize", &result)));
}

}  // namespace
}  // namespace gpuscope::cupti
