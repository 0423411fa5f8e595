// Where --replay-mode app-range's ranges begin and end (cupti/profiler/range_boundaries.h), fed the
// structs CUPTI hands its callbacks: CUpti_CallbackData for cudaProfilerStart/Stop and their
// driver calls, CUpti_NvtxData with NVTX's own parameter structs (generated_nvtx_meta.h).
#include "cupti/profiler/range_boundaries.h"

#include <generated_nvtx_meta.h>
#include <gtest/gtest.h>

#include <thread>

namespace gpuscope::cupti {
namespace {

using Kind = RangeBoundary::Kind;

NvtxRangeFilter FilterOf(std::vector<std::string> specs) {
  StatusOr<NvtxRangeFilter> filter = NvtxRangeFilter::Parse(specs);
  EXPECT_TRUE(filter.ok()) << filter.status().message();
  return filter.ok() ? *filter : NvtxRangeFilter();
}

CUpti_CallbackData ApiCall(CUpti_ApiCallbackSite site) {
  CUpti_CallbackData data{};
  data.callbackSite = site;
  return data;
}

CUpti_NvtxData Nvtx(const void* params, const void* returned = nullptr) {
  CUpti_NvtxData data{};
  data.functionParams = params;
  data.functionReturnValue = returned;
  return data;
}

nvtxEventAttributes_t Ascii(const char* message) {
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  return attributes;
}

TEST(RangeBoundaries, ProfilerStartExitToStopEnterOnceForTheRuntimeAndDriverCalls) {
  RangeBoundaries boundaries{NvtxRangeFilter()};
  EXPECT_TRUE(boundaries.NvtxCallbacks().empty());
  // The runtime call's enter, then its nested driver call's enter and exit, then its exit.
  EXPECT_EQ(boundaries
                .OnApiCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                               CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                               ApiCall(CUPTI_API_ENTER))
                .kind,
            Kind::kNone);
  RangeBoundary begin = boundaries.OnApiCallback(
      CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStart, ApiCall(CUPTI_API_EXIT));
  EXPECT_EQ(begin.kind, Kind::kBegin);
  EXPECT_EQ(begin.name, "cudaProfilerStart/Stop range 0");
  EXPECT_EQ(boundaries
                .OnApiCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                               CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                               ApiCall(CUPTI_API_EXIT))
                .kind,
            Kind::kNone);
  RangeBoundary end = boundaries.OnApiCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                                               CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStop_v4000,
                                               ApiCall(CUPTI_API_ENTER));
  EXPECT_EQ(end.kind, Kind::kEnd);
  EXPECT_EQ(end.token, begin.token);
  EXPECT_EQ(boundaries
                .OnApiCallback(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop,
                               ApiCall(CUPTI_API_ENTER))
                .kind,
            Kind::kNone);
  // The next range has the next number.
  EXPECT_EQ(boundaries
                .OnApiCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                               CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                               ApiCall(CUPTI_API_EXIT))
                .name,
            "cudaProfilerStart/Stop range 1");
}

TEST(RangeBoundaries, WithNvtxIncludeTheProfilerCallsAreNoBoundaries) {
  RangeBoundaries boundaries{FilterOf({"solver/"})};
  EXPECT_EQ(boundaries
                .OnApiCallback(CUPTI_CB_DOMAIN_RUNTIME_API,
                               CUPTI_RUNTIME_TRACE_CBID_cudaProfilerStart_v4000,
                               ApiCall(CUPTI_API_EXIT))
                .kind,
            Kind::kNone);
}

TEST(RangeBoundaries, MatchingPushPopRangeAtAnyDepthEndsAtItsOwnPop) {
  RangeBoundaries boundaries{FilterOf({"solver/"})};
  const std::vector<CUpti_CallbackId> ids = boundaries.NvtxCallbacks();
  EXPECT_NE(std::find(ids.begin(), ids.end(), CUPTI_CBID_NVTX_nvtxRangePushA), ids.end());
  EXPECT_EQ(std::find(ids.begin(), ids.end(), CUPTI_CBID_NVTX_nvtxRangeStartA), ids.end());

  nvtxRangePushA_params outer{"main"};
  nvtxEventAttributes_t solver_attributes = Ascii("solver");
  nvtxRangePushEx_params solver{&solver_attributes};
  nvtxRangePushA_params inner{"solver"};  // nested inside the measured one
  nvtxRangePop_params pop{};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, Nvtx(&outer)).kind,
            Kind::kNone);
  RangeBoundary begin = boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushEx, Nvtx(&solver));
  ASSERT_EQ(begin.kind, Kind::kBegin);
  EXPECT_EQ(begin.name, "solver");
  RangeBoundary nested = boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, Nvtx(&inner));
  EXPECT_EQ(nested.kind, Kind::kBegin);  // the profiler refuses it while one is open
  EXPECT_NE(nested.token, begin.token);
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop)).token,
            nested.token);
  RangeBoundary end = boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop));
  EXPECT_EQ(end.kind, Kind::kEnd);
  EXPECT_EQ(end.token, begin.token);
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop)).kind,
            Kind::kNone);  // "main"
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop)).kind,
            Kind::kNone);  // a pop without a push
}

TEST(RangeBoundaries, PushPopPairsPerThread) {
  RangeBoundaries boundaries{FilterOf({"solver/"})};
  nvtxRangePushA_params solver{"solver"};
  nvtxRangePushA_params other{"other"};
  nvtxRangePop_params pop{};
  std::thread::id a;
  std::thread::id b = std::this_thread::get_id();
  RangeBoundary begin =
      boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, Nvtx(&solver), a);
  ASSERT_EQ(begin.kind, Kind::kBegin);
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, Nvtx(&other), b).kind,
            Kind::kNone);
  // Thread b's pop ends its own push, not thread a's range.
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop), b).kind,
            Kind::kNone);
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePop, Nvtx(&pop), a).token,
            begin.token);
}

TEST(RangeBoundaries, DomainRangesByTheNameTheirDomainWasCreatedWith) {
  RangeBoundaries boundaries{FilterOf({"MyDomain@step/", "MyDomain@load"})};
  int handle_storage = 0;
  const auto handle = reinterpret_cast<nvtxDomainHandle_t>(&handle_storage);
  nvtxDomainCreateA_params create{"MyDomain"};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainCreateA, Nvtx(&create, &handle))
                .kind,
            Kind::kNone);
  nvtxEventAttributes_t step = Ascii("step");
  nvtxDomainRangePushEx_params push{handle, {&step}};
  RangeBoundary begin =
      boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangePushEx, Nvtx(&push));
  ASSERT_EQ(begin.kind, Kind::kBegin);
  EXPECT_EQ(begin.name, "MyDomain@step");
  nvtxDomainRangePop_params pop{handle};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangePop, Nvtx(&pop)).kind,
            Kind::kEnd);
  // The same name in the default domain is another range.
  nvtxRangePushA_params default_step{"step"};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangePushA, Nvtx(&default_step)).kind,
            Kind::kNone);

  // Start/end: the end names the id the start returned.
  nvtxEventAttributes_t load = Ascii("load");
  nvtxDomainRangeStartEx_params start{handle, {&load}};
  const nvtxRangeId_t id = 77;
  RangeBoundary started =
      boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangeStartEx, Nvtx(&start, &id));
  ASSERT_EQ(started.kind, Kind::kBegin);
  EXPECT_EQ(started.name, "MyDomain@load");
  nvtxDomainRangeEnd_params other_end{handle, {78}};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangeEnd, Nvtx(&other_end)).kind,
            Kind::kNone);
  nvtxDomainRangeEnd_params end{handle, {77}};
  RangeBoundary ended = boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxDomainRangeEnd, Nvtx(&end));
  EXPECT_EQ(ended.kind, Kind::kEnd);
  EXPECT_EQ(ended.token, started.token);
}

TEST(RangeBoundaries, StartEndRangeOfTheDefaultDomain) {
  RangeBoundaries boundaries{FilterOf({"warmup"})};
  nvtxRangeStartA_params start{"warmup"};
  const nvtxRangeId_t id = 5;
  RangeBoundary begin =
      boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangeStartA, Nvtx(&start, &id));
  ASSERT_EQ(begin.kind, Kind::kBegin);
  nvtxRangeEnd_params end{5};
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangeEnd, Nvtx(&end)).token,
            begin.token);
  // Ended once only.
  EXPECT_EQ(boundaries.OnNvtxCallback(CUPTI_CBID_NVTX_nvtxRangeEnd, Nvtx(&end)).kind,
            Kind::kNone);
}

}  // namespace
}  // namespace gpuscope::cupti
