// A profiled launch's replay is the profiler's time, not the program's (issue 12): the launch
// calls' API records (the runtime call and the driver call nested in it) lose the replay
// interval the kernel profiler noted, and the interval is written once as an overhead record
// of gpuscope's own kind. Real CUPTI activity
// records through the collector, as the program's threads deliver them.
#include <gtest/gtest.h>

#include <cstdint>

#include "collector_fixture.h"
#include "inject/profiler_time.h"
#include "model/overhead_kinds.h"
#include "recording_sink.h"

namespace gpuscope::inject::testing {
namespace {

// Correlation ids far from those other tests use: the registry is process-wide.
constexpr std::uint32_t kRuntimeLaunch = 8'000'001;
constexpr std::uint32_t kDriverLaunch = 8'000'002;
constexpr std::uint32_t kUnprofiledLaunch = 8'000'003;

const ApiCall& CallOf(const RecordingSink& sink, std::uint32_t correlation_id) {
  for (const ApiCall& call : sink.api_calls) {
    if (call.record.correlation_id == correlation_id) return call;
  }
  ADD_FAILURE() << "no API call with correlation id " << correlation_id;
  static const ApiCall none;
  return none;
}

TEST(ProfilerTimeTest, ReplayLeavesTheLaunchCallsAndBecomesAnOverheadRecord) {
  // The kernel profiler replayed the launch for 4 ms inside the driver call's callback.
  NoteProfilerTime(kRuntimeLaunch, kDriverLaunch, 3'000'000, 7'000'000);
  RecordingSink sink;
  {
    CollectorHarness harness(sink);
    harness.Deliver([](CuptiRecordWriter& w) {
      // CUPTI writes a call's record when it returns: the nested driver call first.
      w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 2'500'000,
            7'004'000, 1, 2, kDriverLaunch);
      w.Api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
            2'000'000, 7'005'000, 1, 2, kRuntimeLaunch);
      w.Api(CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
            7'100'000, 7'105'000, 1, 2, kUnprofiledLaunch);
    });
    harness.Commit();
  }
  ASSERT_EQ(sink.api_calls.size(), 3u);
  const ApiCall& driver = CallOf(sink, kDriverLaunch);
  const ApiCall& runtime = CallOf(sink, kRuntimeLaunch);
  const ApiCall& unprofiled = CallOf(sink, kUnprofiledLaunch);
  // Each call keeps its start and its own time: 5.005 ms - 4 ms and 4.504 ms - 4 ms.
  EXPECT_EQ(runtime.record.start, 2'000'000u);
  EXPECT_EQ(runtime.record.end, 3'005'000u);
  EXPECT_EQ(driver.record.start, 2'500'000u);
  EXPECT_EQ(driver.record.end, 3'004'000u);
  // Still nested in its runtime call after the trim (nvprof's summary counts it once).
  EXPECT_TRUE(driver.nested);
  // A launch that was not profiled is left as CUPTI timed it.
  EXPECT_EQ(unprofiled.record.end - unprofiled.record.start, 5'000u);
  // The replay itself, once, on the launching thread.
  ASSERT_EQ(sink.overheads.size(), 1u);
  EXPECT_EQ(sink.overheads[0].record.overhead_kind, model::kGpuscopeReplayOverheadKind);
  EXPECT_EQ(sink.overheads[0].record.start, 3'000'000u);
  EXPECT_EQ(sink.overheads[0].record.end, 7'000'000u);
  EXPECT_EQ(sink.overheads[0].record.thread_id, runtime.record.thread_id);
  // Taken once: a late duplicate of the id is not trimmed again.
  EXPECT_FALSE(TakeProfilerTime(kRuntimeLaunch).has_value());
}

TEST(ProfilerTimeTest, AnIntervalOutsideTheRecordLeavesItUnchanged) {
  model::ApiCallRecord record;
  record.start = 1'000;
  record.end = 2'000;
  ProfilerInterval later{5'000, 9'000, true};
  EXPECT_EQ(WithoutProfilerTime(record, later).end, 2'000u);
  ProfilerInterval inside{1'200, 1'700, true};
  EXPECT_EQ(WithoutProfilerTime(record, inside).end, 1'500u);
}

TEST(ProfilerTimeTest, EmptyIntervalsAndIdZeroAreNotNoted) {
  NoteProfilerTime(8'000'010, 0, 5'000, 5'000);
  EXPECT_FALSE(TakeProfilerTime(8'000'010).has_value());
  NoteProfilerTime(0, 8'000'011, 1'000, 2'000);
  EXPECT_FALSE(TakeProfilerTime(8'000'011).has_value());
  EXPECT_FALSE(TakeProfilerTime(0).has_value());
}

}  // namespace
}  // namespace gpuscope::inject::testing
