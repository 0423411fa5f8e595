#include "inject/nvtx_pairing.h"

#include <gtest/gtest.h>

#include "recording_sink.h"

namespace gpuscope::inject {
namespace {

using testing::RecordingSink;

NvtxMarker Marker(MarkerPhase phase, bool process_scoped, std::uint32_t id, model::Timestamp t,
                  std::uint32_t thread, std::string_view name = {}, std::string_view domain = {}) {
  NvtxMarker marker;
  marker.phase = phase;
  marker.process_scoped = process_scoped;
  marker.id = id;
  marker.timestamp = t;
  marker.process_id = 500;
  marker.thread_id = thread;
  marker.name = name;
  marker.domain = domain;
  return marker;
}

TEST(NvtxPairingTest, PushPopBecomesOneRangeWithTheStartsName) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  {
    std::string transient_name = "forward";  // CUPTI's memory: gone after the buffer
    pairing.OnMarker(Marker(MarkerPhase::kStart, false, 7, 1000, 11, transient_name, "torch"));
    transient_name.assign("XXXXXXX");
  }
  EXPECT_TRUE(sink.nvtx.empty()) << "nothing is written before the range ends";
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 7, 1500, 11));
  ASSERT_EQ(sink.nvtx.size(), 1u);
  const auto& range = sink.nvtx[0];
  EXPECT_EQ(range.record.kind, model::NvtxKind::kPushPopRange);
  EXPECT_EQ(range.record.start, 1000u);
  EXPECT_EQ(range.record.end, 1500u);
  EXPECT_EQ(range.record.id, 7u);
  EXPECT_EQ(range.record.thread_id, 11u);
  EXPECT_EQ(range.record.process_id, 500u);
  EXPECT_EQ(range.text, "forward");
  EXPECT_EQ(range.text2, "torch");
  EXPECT_EQ(pairing.open_ranges(), 0u);
}

TEST(NvtxPairingTest, NestedPushPopRangesPairById) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 1, 100, 5, "outer"));
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 2, 110, 5, "inner"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 2, 120, 5));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 1, 200, 5));
  ASSERT_EQ(sink.nvtx.size(), 2u);
  EXPECT_EQ(sink.nvtx[0].text, "inner");
  EXPECT_EQ(sink.nvtx[0].record.start, 110u);
  EXPECT_EQ(sink.nvtx[0].record.end, 120u);
  EXPECT_EQ(sink.nvtx[1].text, "outer");
  EXPECT_EQ(sink.nvtx[1].record.end, 200u);
}

TEST(NvtxPairingTest, StartEndRangeMayEndOnAnotherThreadAndArriveFirst) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  // The END (thread 9's buffer) is delivered before the START (thread 8's buffer).
  pairing.OnMarker(Marker(MarkerPhase::kEnd, true, 40, 900, 9));
  EXPECT_TRUE(sink.nvtx.empty());
  pairing.OnMarker(Marker(MarkerPhase::kStart, true, 40, 300, 8, "load", "io"));
  ASSERT_EQ(sink.nvtx.size(), 1u);
  EXPECT_EQ(sink.nvtx[0].record.kind, model::NvtxKind::kStartEndRange);
  EXPECT_EQ(sink.nvtx[0].record.start, 300u);
  EXPECT_EQ(sink.nvtx[0].record.end, 900u);
  EXPECT_EQ(sink.nvtx[0].record.thread_id, 8u) << "the thread that started the range";
  EXPECT_EQ(sink.nvtx[0].text, "load");
  EXPECT_EQ(sink.nvtx[0].text2, "io");
}

// What CUPTI 13 really delivers (H200 probe): every marker has objectKind THREAD, ids come
// from one counter, and only the nvtxRangeStart callback knows which ids are start/end.
TEST(NvtxPairingTest, RangesRegisteredAsStartEndAreStartEnd) {
  RecordingSink sink;
  NvtxStartEndIds start_end_ids;
  NvtxPairing pairing(sink, &start_end_ids);
  start_end_ids.Add(3);
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 1, 10, 1, "push_a"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 1, 20, 1));
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 3, 30, 1, "start_same_thread"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 3, 40, 1));
  ASSERT_EQ(sink.nvtx.size(), 2u);
  EXPECT_EQ(sink.nvtx[0].text, "push_a");
  EXPECT_EQ(sink.nvtx[0].record.kind, model::NvtxKind::kPushPopRange);
  EXPECT_EQ(sink.nvtx[1].text, "start_same_thread");
  EXPECT_EQ(sink.nvtx[1].record.kind, model::NvtxKind::kStartEndRange);
  EXPECT_EQ(start_end_ids.size(), 0u) << "a written range forgets its id";
}

TEST(NvtxPairingTest, ARangeEndingOnAnotherThreadIsStartEnd) {
  RecordingSink sink;
  NvtxPairing pairing(sink);  // no registry: the threads alone decide
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 4, 30, /*thread=*/11, "cross"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 4, 90, /*thread=*/12));
  ASSERT_EQ(sink.nvtx.size(), 1u);
  EXPECT_EQ(sink.nvtx[0].record.kind, model::NvtxKind::kStartEndRange);
  EXPECT_EQ(sink.nvtx[0].record.thread_id, 11u) << "the thread that started it";
}

TEST(NvtxPairingTest, AnOrphanEndKeepsItsRegisteredKind) {
  RecordingSink sink;
  NvtxStartEndIds start_end_ids;
  start_end_ids.Add(9);
  NvtxPairing pairing(sink, &start_end_ids);
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 9, 500, 2));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 10, 600, 2));
  pairing.Finish();
  ASSERT_EQ(sink.nvtx.size(), 2u);
  for (const auto& n : sink.nvtx) {
    EXPECT_EQ(n.record.kind,
              n.record.id == 9 ? model::NvtxKind::kStartEndRange : model::NvtxKind::kPushPopRange);
    EXPECT_EQ(n.record.start, 0u);
  }
}

TEST(NvtxPairingTest, MarksWaitForTheirDataUntilTheEndOfTheBuffer) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  pairing.OnMarker(Marker(MarkerPhase::kInstant, false, 12, 777, 3, "checkpoint", "app"));
  pairing.OnMarkerData(12, 0xFF00FF00u, 4);
  EXPECT_TRUE(sink.nvtx.empty());
  pairing.EndOfBatch();
  ASSERT_EQ(sink.nvtx.size(), 1u);
  const auto& mark = sink.nvtx[0];
  EXPECT_EQ(mark.record.kind, model::NvtxKind::kMark);
  EXPECT_EQ(mark.record.start, 777u);
  EXPECT_EQ(mark.record.end, 777u);
  EXPECT_EQ(mark.record.color, 0xFF00FF00u);
  EXPECT_EQ(mark.record.category, 4u);
  EXPECT_EQ(mark.text, "checkpoint");
  EXPECT_EQ(mark.text2, "app");
}

TEST(NvtxPairingTest, DataColorsOpenRangesAndDataBeforeItsMarkerIsKept) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 1, 10, 1, "a"));
  pairing.OnMarkerData(1, 0xFFFF0000u, 2);
  pairing.OnMarkerData(2, 0xFF0000FFu, 9);  // before marker 2
  pairing.OnMarker(Marker(MarkerPhase::kStart, true, 2, 20, 1, "b"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, false, 1, 30, 1));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, true, 2, 40, 1));
  ASSERT_EQ(sink.nvtx.size(), 2u);
  EXPECT_EQ(sink.nvtx[0].record.color, 0xFFFF0000u);
  EXPECT_EQ(sink.nvtx[0].record.category, 2u);
  EXPECT_EQ(sink.nvtx[1].record.color, 0xFF0000FFu);
  EXPECT_EQ(sink.nvtx[1].record.category, 9u);
}

TEST(NvtxPairingTest, FinishWritesAndCountsWhatNeverCompleted) {
  RecordingSink sink;
  NvtxPairing pairing(sink);
  pairing.OnMarker(Marker(MarkerPhase::kStart, false, 1, 10, 1, "never popped"));
  pairing.OnMarker(Marker(MarkerPhase::kEnd, true, 2, 50, 1));  // started before we recorded
  pairing.OnMarker(Marker(MarkerPhase::kInstant, false, 3, 60, 1, "mark"));
  pairing.Finish();
  ASSERT_EQ(sink.nvtx.size(), 3u);
  EXPECT_EQ(pairing.unfinished_ranges(), 2u);
  bool saw_open = false, saw_orphan = false, saw_mark = false;
  for (const auto& n : sink.nvtx) {
    if (n.text == "never popped") {
      saw_open = true;
      EXPECT_EQ(n.record.start, 10u);
      EXPECT_EQ(n.record.end, 0u) << "0: never ended";
    } else if (n.record.kind == model::NvtxKind::kStartEndRange) {
      saw_orphan = true;
      EXPECT_EQ(n.record.start, 0u) << "0: start not recorded";
      EXPECT_EQ(n.record.end, 50u);
      EXPECT_EQ(n.record.id, 2u);
    } else if (n.text == "mark") {
      saw_mark = true;
    }
  }
  EXPECT_TRUE(saw_open && saw_orphan && saw_mark);
  EXPECT_EQ(pairing.open_ranges(), 0u);
}

// Ranges started and never ended leave their ids behind: the registry forgets the oldest
// beyond its capacity instead of growing for the life of the process.
TEST(NvtxStartEndIdsTest, NeverEndedRangesCannotGrowTheRegistryPastItsCapacity) {
  NvtxStartEndIds ids(/*capacity=*/100);
  for (std::uint32_t id = 1; id <= 1000; ++id) ids.Add(id);
  EXPECT_EQ(ids.size(), 100u);
  EXPECT_EQ(ids.evicted(), 900u);
  EXPECT_FALSE(ids.Take(900)) << "the oldest ids were forgotten";
  EXPECT_TRUE(ids.Take(901)) << "the newest are kept";
  EXPECT_TRUE(ids.Take(1000));
}

TEST(NvtxStartEndIdsTest, TakenIdsFreeTheirPlaceAndAreNeverCountedAsEvicted) {
  NvtxStartEndIds ids(/*capacity=*/4);
  ids.Add(1);  // a range that stays open for a long time
  for (std::uint32_t id = 2; id < 100'000; ++id) {
    ids.Add(id);
    ASSERT_TRUE(ids.Take(id));
  }
  EXPECT_EQ(ids.evicted(), 0u);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_TRUE(ids.Take(1)) << "within the capacity nothing is forgotten";
}

}  // namespace
}  // namespace gpuscope::inject
