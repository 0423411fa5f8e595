#include "analysis/collection_warnings.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/overhead_kinds.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/devices.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis {
namespace {

TEST(LossWarnings, NothingLostNothingSaid) { EXPECT_TRUE(LossWarnings({}).empty()); }

TEST(LossWarnings, OneLinePerKindOfLoss) {
  CollectionState state;
  state.counters.dropped_records = 1234;
  state.counters.kernels_without_timestamp = 12;
  state.counters.copies_without_timestamp = 2;
  state.counters.memsets_without_timestamp = 5;
  state.counters.unknown_records = 7;
  state.counters.unfinished_nvtx_ranges = 3;
  state.counters.unreadable_buffers = 2;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "1234 records were dropped by CUPTI (its buffers were full); the summary is "
                "incomplete",
                "12 kernels have no timestamps and are not timed",
                "2 memory copies have no timestamps and are not timed",
                "5 memsets have no timestamps and are not timed",
                "7 CUPTI records of kinds gpuscope does not read were skipped",
                "3 NVTX ranges were never ended",
                "2 CUPTI buffers could not be read to the end; the records after the damage are "
                "missing"}));
}

// gpuscope's own replay of profiled launches (source counters) pauses tracing: said, with
// how long, since other threads' work in that time is missing from the trace.
TEST(LossWarnings, TracingPausedForSourceCountersIsSaid) {
  CollectionState state;
  state.counters.tracing_paused_ns = 61'250'000;
  state.counters.own_replay_records = 9;  // gpuscope's own records: not a loss, not said
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "tracing was paused for 61.2 ms while gpuscope replayed profiled launches for "
                "their source counters (CUPTI's SASS patching counts nothing while tracing is "
                "on); work other threads did then is not in the trace"}));
}

// gpuscope's replay of profiled launches is profiler time, taken out of the launch calls: the
// summary says how much, from the report's own overhead rows.
TEST(LossWarnings, ReplayTimeTakenOutOfTheLaunchCallsIsSaid) {
  CollectionState state;
  state.profiler_replay_ns = 4'250'000'000;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "gpuscope's replay of profiled launches took 4250.0 ms inside their launch "
                "calls; it is shown as profiler time (overheads), not as the program's API "
                "time"}));
}

TEST(CollectionWarnings, ReplayTimeIsSummedFromTheReportsOverheadRows) {
  store::testing::ScratchDir dir;
  const std::string path = dir.File("profiled.sqlite");
  {
    store::testing::ReportBuilder report(path);
    ASSERT_TRUE(report.status().ok()) << report.status().message();
    report.Write(store::testing::H200());
    model::OverheadRecord overhead;
    overhead.end = report.At(0);  // times inside the run, else the reader leaves them out
    overhead.process_id = 1;
    overhead.thread_id = 2;
    for (std::uint32_t kind : {model::kGpuscopeReplayOverheadKind, 1u << 16,
                               model::kGpuscopeReplayOverheadKind}) {
      overhead.overhead_kind = kind;
      overhead.start = overhead.end + 1'000'000;
      overhead.end = overhead.start + 1'500'000;  // 1.5 ms each; CUPTI's own is not counted
      overhead.name = kind == model::kGpuscopeReplayOverheadKind ? "gpuscope replay" : "CUPTI";
      report.Write(overhead);
    }
    ASSERT_TRUE(report.Close().ok());
  }
  auto reader = store::ReportReader::Open(path);
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  std::vector<std::string> warnings = CollectionWarnings(**reader);
  ASSERT_EQ(warnings.size(), 1u) << ::testing::PrintToString(warnings);
  EXPECT_NE(warnings[0].find("took 3.0 ms inside their launch calls"), std::string::npos)
      << warnings[0];
}

TEST(LossWarnings, SingularForms) {
  CollectionState state;
  state.counters.dropped_records = 1;
  state.counters.kernels_without_timestamp = 1;
  state.counters.copies_without_timestamp = 1;
  state.counters.memsets_without_timestamp = 1;
  state.counters.unknown_records = 1;
  state.counters.unfinished_nvtx_ranges = 1;
  state.counters.unreadable_buffers = 1;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "1 record was dropped by CUPTI (its buffers were full); the summary is "
                "incomplete",
                "1 kernel has no timestamps and is not timed",
                "1 memory copy has no timestamps and is not timed",
                "1 memset has no timestamps and is not timed",
                "1 CUPTI record of kinds gpuscope does not read was skipped",
                "1 NVTX range was never ended",
                "1 CUPTI buffer could not be read to the end; the records after the damage are "
                "missing"}));
}

TEST(LossWarnings, AnUnfinalizedReportSaysHowFarTheDataGoes) {
  CollectionState state;
  state.finalized = false;
  state.tracing_start = 1'000'000'000;
  state.last_flush = 3'500'000'000;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "the report was not finalized (the program ended abruptly or is still running): "
                "the data is complete up to the last flush (2.50000s after tracing began), "
                "anything later is missing"}));
  state.last_flush = 0;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "the report was not finalized (the program ended abruptly or is still running) "
                "and was never flushed: it holds no activity"}));
}

// The launcher finalises every report, so a crashed process's report is finalized too:
// only its writer's missing close says that the data stops at the last flush.
TEST(LossWarnings, AReportItsWriterNeverClosedSaysHowFarTheDataGoes) {
  CollectionState state;
  state.finalized = true;
  state.closed_by_writer = false;
  state.tracing_start = 1'000'000'000;
  state.last_flush = 3'500'000'000;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "the report was not closed by its writer (the process ended abruptly): the data "
                "is complete up to the last flush (2.50000s after tracing began), anything later "
                "is missing"}));
  state.last_flush = 0;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "the report was not closed by its writer (the process ended abruptly) and was "
                "never flushed: it holds no activity"}));
  // Closed by its writer, or a report too old to say: nothing to warn about.
  state.closed_by_writer = true;
  EXPECT_TRUE(LossWarnings(state).empty());
  state.closed_by_writer = std::nullopt;
  EXPECT_TRUE(LossWarnings(state).empty());
}

TEST(LossWarnings, RecordsTheWriterCouldNotStore) {
  CollectionState state;
  state.records_not_written = 40;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{"40 records could not be written to the report (an I/O "
                                      "error while tracing); the summary is incomplete"}));
}

// A writer that stopped (a full disk) recorded why and up to when: the launcher's summary
// says both, with the losses by table.
TEST(LossWarnings, AWriterThatStoppedSaysSinceWhenAndWhy) {
  CollectionState state;
  state.records_not_written = 1200;
  state.records_not_written_by_table = {{"kernels", 600}, {"api_calls", 600}};
  state.write_error = "cannot commit: database or disk is full";
  state.tracing_start = 1'000'000'000;
  state.complete_until = 2'500'000'000;
  state.last_flush = 2'500'000'000;
  EXPECT_EQ(LossWarnings(state),
            (std::vector<std::string>{
                "the report is incomplete from 1.50000s after tracing began (cannot commit: "
                "database or disk is full): 1200 records could not be written (kernels 600, "
                "api_calls 600); the summary is incomplete"}));
}

}  // namespace
}  // namespace gpuscope::analysis
