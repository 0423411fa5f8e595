// Source counters on their way out of the program (issue 11): gpuscope's own replay launches
// stay out of the trace and are counted; a profiled launch's instruction values and cubin
// reach the sink intact after being moved across threads (their names are views into the
// kernel's own storage).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "collector_fixture.h"
#include "inject/own_replay_calls.h"
#include "inject/profiled_kernel.h"
#include "recording_sink.h"

namespace gpuscope::inject::testing {
namespace {

// Correlation ids far from those other tests use: the registry is process-wide.
constexpr std::uint32_t kReplayLaunch = 7'000'001;
constexpr std::uint32_t kReplaySync = 7'000'002;
constexpr std::uint32_t kProgramLaunch = 7'000'003;

TEST(SourceCountersTest, OwnReplayRecordsAreLeftOutAndCounted) {
  NoteOwnReplayCall(kReplayLaunch);
  NoteOwnReplayCall(kReplaySync);
  NoteTracingPaused(2'000'000);
  NoteTracingPaused(500'000);
  RecordingSink sink;
  {
    CollectorHarness harness(sink);
    harness.Deliver([](CuptiRecordWriter& w) {
      CUpti_ActivityKernel10& replayed = w.Kernel();
      replayed.start = 2'000'000;
      replayed.end = 2'001'000;
      replayed.correlationId = kReplayLaunch;
      replayed.name = "_Z6k_fp64PKfPfi";
      w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 1'999'000,
            1'999'500, 1, 2, kReplayLaunch);
      w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, 1'999'600,
            2'001'100, 1, 2, kReplaySync);
      CUpti_ActivitySynchronization2& sync = w.Sync();
      sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
      sync.start = 1'999'600;
      sync.end = 2'001'100;
      sync.correlationId = kReplaySync;
      CUpti_ActivityKernel10& program = w.Kernel();
      program.start = 2'100'000;
      program.end = 2'101'000;
      program.correlationId = kProgramLaunch;
      program.name = "_Z6k_fp64PKfPfi";
      w.Api(CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, 2'099'000,
            2'099'500, 1, 2, kProgramLaunch);
    });
    harness.Commit();
  }  // the session ends: API calls held for nesting are written
  ASSERT_EQ(sink.kernels.size(), 1u);
  EXPECT_EQ(sink.kernels[0].record.correlation_id, kProgramLaunch);
  ASSERT_EQ(sink.api_calls.size(), 1u);
  EXPECT_EQ(sink.api_calls[0].record.correlation_id, kProgramLaunch);
  EXPECT_TRUE(sink.syncs.empty());
  EXPECT_EQ(sink.counters.own_replay_records, 4u);
  // The pause of tracing around the replay is counted and reaches the report's counters.
  EXPECT_EQ(sink.counters.tracing_paused_ns, 2'500'000u);
  EXPECT_FALSE(IsOwnReplayCall(kProgramLaunch));
  EXPECT_FALSE(IsOwnReplayCall(0));
}

OwnedProfiledKernel WithSourceCounters() {
  OwnedProfiledKernel kernel;
  kernel.record.correlation_id = 41;
  kernel.record.profile_index = 0;
  kernel.record.outcome = model::ProfileOutcome::kMeasured;
  kernel.mangled_name = "_Z6k_fp64PKfPfi";
  kernel.chip = "GH100";
  OwnedSourceCounters& source = kernel.source;
  source.requested = true;
  source.total_samples = 20636;
  source.dropped_samples = 3;
  source.sampling_period = 9;
  // Long names (beyond any small-string buffer) and short ones: both must stay valid.
  const std::string function = "_Z6k_fp64PKfPfi";
  for (std::uint64_t pc = 0; pc < 200; ++pc) {
    source.values.push_back({57506000, source.Name(function), pc * 16,
                             source.Name("smsp__sass_inst_executed"), 32768 + pc});
    source.values.push_back({57506000, source.Name(function), pc * 16,
                             source.Name("smsp__pcsamp_warps_issue_stalled_long_scoreboard"),
                             pc});
  }
  source.cubin_crcs.push_back(57506000);
  source.cubin_images.push_back({0x7f, 'E', 'L', 'F', 1, 2, 3});
  return kernel;
}

TEST(SourceCountersTest, InstructionValuesAndCubinsReachTheSinkAfterTheHandOver) {
  RecordingSink sink;
  CollectorHarness harness(sink);
  std::vector<OwnedProfiledKernel> moved;
  moved.push_back(WithSourceCounters());  // moved once here, again by the collector
  harness.collector().SubmitProfiledKernel(std::move(moved.back()));
  harness.Commit();
  ASSERT_EQ(sink.profiled_kernels.size(), 1u);
  const RecordedProfile& profile = sink.profiled_kernels[0];
  EXPECT_TRUE(profile.record.source.requested);
  EXPECT_EQ(profile.record.source.total_samples, 20636u);
  EXPECT_EQ(profile.record.source.dropped_samples, 3u);
  EXPECT_EQ(profile.record.source.sampling_period, 9u);
  EXPECT_EQ(profile.source_message, "");
  ASSERT_EQ(profile.instruction_values.size(), 400u);
  EXPECT_EQ(profile.instruction_values[0].function, "_Z6k_fp64PKfPfi");
  EXPECT_EQ(profile.instruction_values[0].metric, "smsp__sass_inst_executed");
  EXPECT_EQ(profile.instruction_values[0].value, 32768u);
  EXPECT_EQ(profile.instruction_values[399].metric,
            "smsp__pcsamp_warps_issue_stalled_long_scoreboard");
  EXPECT_EQ(profile.instruction_values[399].pc_offset, 199u * 16);
  EXPECT_EQ(profile.instruction_values[399].value, 199u);
  ASSERT_EQ(profile.cubins.size(), 1u);
  EXPECT_EQ(profile.cubins[0].first, 57506000u);
  EXPECT_EQ(profile.cubins[0].second.size(), 7u);
}

}  // namespace
}  // namespace gpuscope::inject::testing
