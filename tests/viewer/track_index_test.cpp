// The viewer's per-track index and the level-of-detail answer built from it.
#include "viewer/track_index.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../export/test_reports.h"
#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "store/report_reader.h"
#include "store/report_writer.h"
#include "store/testing/synthetic_trace.h"
#include "viewer/level_of_detail.h"

namespace gpuscope::viewer {
namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using analysis::testing::ParseJson;
using exporter::testing::kRichStart;
using exporter::testing::ScratchDir;

std::unique_ptr<TrackIndex> BuildIndex(const std::string& path,
                                       std::unique_ptr<store::ReportReader>& reader) {
  auto opened = store::ReportReader::Open(path);
  EXPECT_TRUE(opened.ok()) << opened.status().message();
  reader = std::move(opened.value());
  auto index = TrackIndex::Build(*reader);
  EXPECT_TRUE(index.ok()) << index.status().message();
  return std::move(index.value());
}

class RichIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    exporter::testing::WriteRichReport(dir_.File("rich.sqlite"));
    index_ = BuildIndex(dir_.File("rich.sqlite"), reader_);
  }
  ScratchDir dir_;
  std::unique_ptr<store::ReportReader> reader_;
  std::unique_ptr<TrackIndex> index_;
};

TEST_F(RichIndexTest, TracksComeInDisplayOrder) {
  std::vector<std::string> ids;
  for (const Track& track : index_->tracks()) ids.push_back(track.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"gpu0.s7", "gpu0.s13", "mem0", "t77", "n77"}));
  const Track* stream = index_->FindTrack("gpu0.s7");
  ASSERT_NE(stream, nullptr);
  EXPECT_EQ(stream->group, "GPU 0 (NVIDIA H200)");
  EXPECT_EQ(stream->label, "Stream 7");
  // Kernel, copy and memset of stream 7, merged in start order; the untimed kernel is out.
  ASSERT_EQ(stream->events.size(), 3u);
  EXPECT_EQ(stream->events[0].type(), EventType::kKernel);
  EXPECT_EQ(stream->events[1].type(), EventType::kMemcpy);
  EXPECT_EQ(stream->events[2].type(), EventType::kMemset);
  EXPECT_EQ(index_->Name(stream->events[1]), "[CUDA memcpy DtoH]");
  EXPECT_EQ(index_->untimed_events(), 1u);
}

TEST_F(RichIndexTest, NestsApiCallsAndNvtxRanges) {
  const Track* api = index_->FindTrack("t77");
  ASSERT_NE(api, nullptr);
  ASSERT_EQ(api->events.size(), 7u);
  EXPECT_EQ(index_->Name(api->events[1]), "cuMemAlloc_v2");
  EXPECT_EQ(api->events[1].depth(), 1u);
  EXPECT_EQ(api->events[2].depth(), 0u);
  EXPECT_EQ(api->max_depth, 1u);
  const Track* nvtx = index_->FindTrack("n77");
  ASSERT_NE(nvtx, nullptr);
  std::vector<std::pair<std::string, std::uint32_t>> seen;
  for (const TrackEvent& event : nvtx->events) {
    seen.emplace_back(std::string(index_->Name(event)), event.depth());
  }
  ASSERT_EQ(seen.size(), 5u);
  EXPECT_EQ(seen[0], std::make_pair(std::string("outer"), 0u));
  EXPECT_EQ(seen[1], std::make_pair(std::string("inner"), 1u));
  EXPECT_EQ(seen[2], std::make_pair(std::string("tick"), 2u));
  EXPECT_EQ(nvtx->events[2].type(), EventType::kMark);
  // The range that never ended is kept, drawn to the end of the recording.
  EXPECT_EQ(seen[4].first, "open");
  EXPECT_GE(nvtx->events[4].end, nvtx->events[4].start);
}

TEST_F(RichIndexTest, FindsCorrelatedEventsBothWays) {
  auto api = index_->Correlated(3, /*gpu=*/false);
  ASSERT_EQ(api.size(), 1u);
  EXPECT_EQ(index_->tracks()[api[0].track].id, "t77");
  EXPECT_EQ(index_->tracks()[api[0].track].events[api[0].index].start, kRichStart + 2000);
  auto gpu = index_->Correlated(5, /*gpu=*/true);  // the copy, through its runtime call
  ASSERT_EQ(gpu.size(), 1u);
  EXPECT_EQ(index_->tracks()[gpu[0].track].events[gpu[0].index].type(), EventType::kMemcpy);
  EXPECT_TRUE(index_->Correlated(1, true).empty());
}

TEST_F(RichIndexTest, CounterTrackFollowsAllocations) {
  const Track* memory = index_->FindTrack("mem0");
  ASSERT_NE(memory, nullptr);
  ASSERT_EQ(memory->counter.size(), 2u);
  EXPECT_EQ(memory->counter[0].value, 1 << 20);
  EXPECT_EQ(memory->counter[1].value, 0);
  JsonValue answer =
      ParsedJsonOrFail(SlicesJson(*index_, *memory, {kRichStart + 1000, kRichStart + 100000, 100}));
  const JsonValue* counter = answer.Find("counter");
  ASSERT_NE(counter, nullptr);
  ASSERT_EQ(counter->array.size(), 2u);  // the value in force at the left edge, then the free
  EXPECT_EQ(counter->array[0].Find("v")->text, "1048576");
}

TEST_F(RichIndexTest, WindowIncludesEventsStartedBeforeIt) {
  const Track* nvtx = index_->FindTrack("n77");
  // A window inside "inner": outer and inner are running, nothing starts inside it.
  JsonValue answer =
      ParsedJsonOrFail(SlicesJson(*index_, *nvtx, {kRichStart + 2000, kRichStart + 3000, 10}));
  const JsonValue* slices = answer.Find("slices");
  ASSERT_EQ(slices->array.size(), 2u);
  EXPECT_EQ(slices->array[0].Find("name")->text, "outer");
  EXPECT_EQ(slices->array[1].Find("name")->text, "inner");
  EXPECT_EQ(slices->array[1].Find("depth")->text, "1");
  EXPECT_EQ(slices->array[1].Find("type")->text, "nvtx");
}

TEST(TrackIndexTest, IndexesAReportWhoseWriterDied) {
  // The writer flushes and its process dies without closing: the report is a database plus
  // its -wal file, which the index reads like any other.
  ScratchDir dir;
  std::string path = dir.File("died.sqlite");
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto writer = store::ReportWriter::Create(path, true);
    if (!writer.ok()) _exit(1);
    store::testing::SyntheticTraceOptions options;
    options.kernels = 500;
    store::testing::WriteSyntheticTrace(*writer.value(), options);
    writer.value()->Flush();
    _exit(0);  // no Close(): as after kill -9
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::unique_ptr<store::ReportReader> reader;
  auto index = BuildIndex(path, reader);
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->event_count(), 1000u);
}

TEST(LevelOfDetailTest, AnswerStaysProportionalToPixelsOnAMillionEvents) {
  ScratchDir dir;
  exporter::testing::WriteSyntheticReport(dir.File("big.sqlite"), 1'000'000);
  std::unique_ptr<store::ReportReader> reader;
  auto index = BuildIndex(dir.File("big.sqlite"), reader);
  ASSERT_EQ(index->event_count(), 2'000'000u);
  const Track* gpu = nullptr;
  for (const Track& track : index->tracks()) {
    if (track.kind == "gpu" && (!gpu || track.events.size() > gpu->events.size())) gpu = &track;
  }
  ASSERT_NE(gpu, nullptr);
  ASSERT_GT(gpu->events.size(), 500'000u);
  const std::uint64_t t0 = gpu->events.front().start, t1 = gpu->events.back().end;
  for (std::uint32_t px : {100u, 1000u, 4000u}) {
    JsonValue whole = ParsedJsonOrFail(SlicesJson(*index, *gpu, {t0, t1, px}));
    std::size_t entries = whole.Find("slices")->array.size() + whole.Find("buckets")->array.size();
    EXPECT_LE(entries, 2u * px + 2) << px;
    // Buckets account for every event they merge.
    std::uint64_t counted = whole.Find("slices")->array.size();
    for (const JsonValue& bucket : whole.Find("buckets")->array) {
      counted += std::stoull(bucket.Find("count")->text);
    }
    EXPECT_EQ(counted, gpu->events.size()) << px;
  }
  // Zoomed in to ~20 events: every one comes back as a slice.
  std::uint64_t z0 = gpu->events[1000].start, z1 = gpu->events[1019].end;
  JsonValue zoomed = ParsedJsonOrFail(SlicesJson(*index, *gpu, {z0, z1, 2000}));
  EXPECT_GE(zoomed.Find("slices")->array.size(), 20u);
  EXPECT_LE(zoomed.Find("slices")->array.size(), 22u);
  EXPECT_TRUE(zoomed.Find("buckets")->array.empty());
}

}  // namespace
}  // namespace gpuscope::viewer
