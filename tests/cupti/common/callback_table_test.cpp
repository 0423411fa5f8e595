// The subscriber callback's table of handlers with real CUPTI callback structs, as CUPTI hands
// them to the callback: handlers run in the declared slot order whatever order they were
// registered in, a consuming handler hides the callback from the later ones, a slot is taken
// once, and nothing a handler throws leaves the callback. Then the production handlers that
// consume: gpuscope's own replay calls, the stream-capture calls, the sticky-error watch.
#include "cupti/common/callback_table.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "cupti/tracing/capture_callbacks.h"
#include "cupti/tracing/own_replay_scope.h"
#include "cupti/tracing/sticky_error_watch.h"
#include "inject/own_replay_calls.h"

namespace gpuscope::cupti {
namespace {

// Notes its slot in `seen` at each callback; consumes when told to.
class RecordingHandler final : public CallbackHandler {
 public:
  RecordingHandler(CallbackSlot slot, std::vector<CallbackSlot>& seen, bool consumes = false)
      : slot_(slot), seen_(seen), consumes_(consumes) {}
  bool Handle(CUpti_CallbackDomain /*domain*/, CUpti_CallbackId /*cbid*/,
              const void* /*data*/) override {
    seen_.push_back(slot_);
    return consumes_;
  }

 private:
  CallbackSlot slot_;
  std::vector<CallbackSlot>& seen_;
  bool consumes_;
};

class ThrowingHandler final : public CallbackHandler {
 public:
  bool Handle(CUpti_CallbackDomain, CUpti_CallbackId, const void*) override {
    throw std::runtime_error("a feature failed");
  }
};

CUpti_CallbackData ApiCall(CUpti_ApiCallbackSite site, std::uint32_t correlation_id = 7) {
  CUpti_CallbackData data{};
  data.callbackSite = site;
  data.correlationId = correlation_id;
  return data;
}

void Dispatch(CallbackTable& table, const CUpti_CallbackData& api) {
  table.Dispatch(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                 &api);
}

TEST(CallbackTableTest, HandlersRunInSlotOrderNotRegistrationOrder) {
  std::vector<CallbackSlot> seen;
  RecordingHandler leave(CallbackSlot::kContextsLeave, seen);
  RecordingHandler profiler(CallbackSlot::kKernelProfiler, seen);
  RecordingHandler replay(CallbackSlot::kOwnReplay, seen);
  RecordingHandler arrive(CallbackSlot::kContextsArrive, seen);
  CallbackTable table;
  ASSERT_TRUE(table.Register(CallbackSlot::kContextsLeave, leave));
  ASSERT_TRUE(table.Register(CallbackSlot::kKernelProfiler, profiler));
  ASSERT_TRUE(table.Register(CallbackSlot::kOwnReplay, replay));
  ASSERT_TRUE(table.Register(CallbackSlot::kContextsArrive, arrive));
  CUpti_ResourceData resource{};
  table.Dispatch(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING, &resource);
  EXPECT_EQ(seen, (std::vector<CallbackSlot>{CallbackSlot::kContextsArrive, CallbackSlot::kOwnReplay,
                                             CallbackSlot::kKernelProfiler,
                                             CallbackSlot::kContextsLeave}));
}

TEST(CallbackTableTest, AConsumedCallbackReachesNoLaterHandler) {
  std::vector<CallbackSlot> seen;
  RecordingHandler backtraces(CallbackSlot::kBacktraces, seen);
  RecordingHandler capture(CallbackSlot::kStreamCapture, seen, /*consumes=*/true);
  RecordingHandler profiler(CallbackSlot::kKernelProfiler, seen);
  CallbackTable table;
  table.Register(CallbackSlot::kBacktraces, backtraces);
  table.Register(CallbackSlot::kStreamCapture, capture);
  table.Register(CallbackSlot::kKernelProfiler, profiler);
  Dispatch(table, ApiCall(CUPTI_API_ENTER));
  EXPECT_EQ(seen, (std::vector<CallbackSlot>{CallbackSlot::kBacktraces, CallbackSlot::kStreamCapture}));
}

TEST(CallbackTableTest, ASlotIsTakenOnceAndKept) {
  std::vector<CallbackSlot> seen;
  RecordingHandler first(CallbackSlot::kKernelProfiler, seen);
  RecordingHandler second(CallbackSlot::kGpuMetricSampler, seen);
  CallbackTable table;
  EXPECT_FALSE(table.Registered(CallbackSlot::kKernelProfiler));
  EXPECT_TRUE(table.Register(CallbackSlot::kKernelProfiler, first));
  EXPECT_FALSE(table.Register(CallbackSlot::kKernelProfiler, second)) << "a feature is enabled once";
  EXPECT_TRUE(table.Registered(CallbackSlot::kKernelProfiler));
  Dispatch(table, ApiCall(CUPTI_API_ENTER));
  EXPECT_EQ(seen, (std::vector<CallbackSlot>{CallbackSlot::kKernelProfiler}));
}

TEST(CallbackTableTest, NothingRunsWithoutDataOrOnceIgnoring) {
  std::vector<CallbackSlot> seen;
  RecordingHandler handler(CallbackSlot::kApiCapture, seen);
  CallbackTable table;
  table.Register(CallbackSlot::kApiCapture, handler);
  table.Dispatch(CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                 nullptr);
  EXPECT_TRUE(seen.empty());
  table.IgnoreFromNowOn();
  Dispatch(table, ApiCall(CUPTI_API_ENTER));
  EXPECT_TRUE(seen.empty()) << "a forked child's callbacks do nothing";
}

TEST(CallbackTableTest, AThrowingHandlerEndsTheCallbackWithoutEscapingIt) {
  std::vector<CallbackSlot> seen;
  ThrowingHandler throwing;
  RecordingHandler later(CallbackSlot::kKernelProfiler, seen);
  CallbackTable table;
  table.Register(CallbackSlot::kApiCapture, throwing);
  table.Register(CallbackSlot::kKernelProfiler, later);
  EXPECT_NO_THROW(Dispatch(table, ApiCall(CUPTI_API_ENTER)));
  EXPECT_TRUE(seen.empty());
}

// CUPTI calls back on the program's threads while the session thread enables features.
TEST(CallbackTableTest, AHandlerRegisteredWhileCallbacksRunIsSeenOnceRegistered) {
  std::atomic<int> calls{0};
  class Counting final : public CallbackHandler {
   public:
    explicit Counting(std::atomic<int>& calls) : calls_(calls) {}
    bool Handle(CUpti_CallbackDomain, CUpti_CallbackId, const void*) override {
      calls_.fetch_add(1);
      return false;
    }

   private:
    std::atomic<int>& calls_;
  } counting(calls);
  CallbackTable table;
  std::atomic<bool> registered{false};
  std::thread program([&] {
    const CUpti_CallbackData api = ApiCall(CUPTI_API_ENTER);
    while (!registered.load()) Dispatch(table, api);
    Dispatch(table, api);
  });
  table.Register(CallbackSlot::kGpuMetricSampler, counting);
  registered.store(true);
  program.join();
  EXPECT_GE(calls.load(), 1);
}

TEST(CallbackTableTest, OnlyRuntimeAndDriverCallbacksCarryApiData) {
  CUpti_CallbackData api{};
  CUpti_ResourceData resource{};
  EXPECT_EQ(ApiCallbackData(CUPTI_CB_DOMAIN_RUNTIME_API, &api), &api);
  EXPECT_EQ(ApiCallbackData(CUPTI_CB_DOMAIN_DRIVER_API, &api), &api);
  EXPECT_EQ(ApiCallbackData(CUPTI_CB_DOMAIN_RESOURCE, &resource), nullptr);
  EXPECT_EQ(ApiCallbackData(CUPTI_CB_DOMAIN_NVTX, &resource), nullptr);
}

TEST(CallbackTableTest, OwnReplayCallsAreConsumedOnlyOnTheReplayingThread) {
  CallbackHandler& replay = OwnReplayCallbacks();
  const CUpti_CallbackData own_call = ApiCall(CUPTI_API_ENTER, /*correlation_id=*/901);
  EXPECT_FALSE(replay.Handle(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                             &own_call))
      << "the program's call";
  {
    OwnReplayScope scope(/*call_id=*/900, /*record_id=*/0);
    EXPECT_TRUE(replay.Handle(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                              &own_call));
    EXPECT_TRUE(inject::IsOwnReplayCall(901));
    const CUpti_CallbackData program_call = ApiCall(CUPTI_API_ENTER, /*correlation_id=*/900);
    EXPECT_TRUE(replay.Handle(CUPTI_CB_DOMAIN_RUNTIME_API,
                              CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &program_call));
    EXPECT_FALSE(inject::IsOwnReplayCall(900)) << "the replayed launch's records are the program's";
    CUpti_ResourceData resource{};
    EXPECT_FALSE(replay.Handle(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED, &resource))
        << "resource callbacks are not calls";
    bool replaying_elsewhere = true;
    std::thread other([&] {
      replaying_elsewhere = replay.Handle(CUPTI_CB_DOMAIN_DRIVER_API,
                                          CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, &own_call);
    });
    other.join();
    EXPECT_FALSE(replaying_elsewhere);
  }
}

TEST(CallbackTableTest, CaptureCallsAndWatchedCallsAreConsumedLaunchesAreNot) {
  const CUpti_CallbackData enter = ApiCall(CUPTI_API_ENTER);
  // The end call's enter: the capture gate takes only its exit.
  EXPECT_TRUE(StreamCaptureCallbacks().Handle(
      CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaStreamEndCapture_v10000, &enter));
  EXPECT_FALSE(StreamCaptureCallbacks().Handle(
      CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &enter));
  EXPECT_TRUE(StickyErrorCallbacks().Handle(
      CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, &enter));
  const CUpti_CallbackData exit = ApiCall(CUPTI_API_EXIT);  // returned nothing to read
  EXPECT_TRUE(StickyErrorCallbacks().Handle(
      CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceSynchronize_v3020, &exit));
  EXPECT_FALSE(StickyErrorCallbacks().Handle(
      CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &enter));
}

}  // namespace
}  // namespace gpuscope::cupti
