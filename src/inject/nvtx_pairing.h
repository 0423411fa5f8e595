// Turns CUPTI's NVTX markers into NVTX ranges and marks.
//
// CUPTI reports a range as two markers: START (with the name and domain) and END (same
// id, no name), and a mark as one INSTANTANEOUS marker. Ranges are paired by id (CUPTI
// numbers all markers of a process from one counter).
//
// Push/pop or start/end? CUPTI's marker records do not say (nvtx_start_end_ids.h: on CUDA
// 13 both carry objectKind THREAD). A range is written as start/end when any of these
// holds: its id was registered by the nvtxRangeStart* callback (`start_end_ids`), it ended
// on another thread than it started (push/pop cannot), or CUPTI gave it objectKind
// PROCESS (what the header suggests for process-wide ranges; the translator passes that
// as `process_scoped`). Otherwise it is push/pop.
//
// Color and category arrive separately, in a MARKER_DATA record with the marker's id,
// right after the marker in the same buffer (verified). A range stays open here until its
// END, so its data always finds it; a mark is held until the end of the buffer for the
// same reason. Data that arrives before its marker is kept (bounded) until the marker.
//
// Start/end ranges may start and end on different threads, whose per-thread buffers CUPTI
// delivers in any order (verified: the END of a cross-thread range came first), so an END
// may arrive before its START: it waits for it.
// At Finish(), ranges that never ended are written with end = 0 and ENDs whose START we
// never saw (a range opened before cudaProfilerStart, say) with start = 0; both are
// counted as unfinished ranges, never dropped silently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "inject/nvtx_start_end_ids.h"
#include "model/record_sink.h"
#include "model/records.h"

namespace gpuscope::inject {

enum class MarkerPhase : std::uint8_t { kInstant, kStart, kEnd };

struct NvtxMarker {
  MarkerPhase phase = MarkerPhase::kInstant;
  bool process_scoped = false;  // start/end range (true) or push/pop (false)
  std::uint32_t id = 0;
  model::Timestamp timestamp = 0;
  std::uint32_t process_id = 0;
  std::uint32_t thread_id = 0;
  std::string_view name;    // START and INSTANTANEOUS only; valid during the call
  std::string_view domain;  // empty: the default domain
};

class NvtxPairing {
 public:
  // `start_end_ids` may be null (then only the thread and object-kind rules apply).
  explicit NvtxPairing(model::RecordSink& sink, NvtxStartEndIds* start_end_ids = nullptr)
      : sink_(sink), start_end_ids_(start_end_ids) {}

  void OnMarker(const NvtxMarker& marker);
  // `color` is ARGB, 0 when the marker has none.
  void OnMarkerData(std::uint32_t id, std::uint32_t color, std::uint32_t category);
  // The buffer whose string views the held marks use is about to be released.
  void EndOfBatch();
  // Writes every range still open or half-seen, and counts them.
  void Finish();

  std::uint64_t unfinished_ranges() const { return unfinished_ranges_; }
  std::size_t open_ranges() const { return open_.size() + orphan_ends_.size(); }

 private:
  struct OpenRange {
    model::NvtxKind kind = model::NvtxKind::kPushPopRange;
    model::Timestamp start = 0;
    std::uint32_t id = 0;
    std::uint32_t process_id = 0;
    std::uint32_t thread_id = 0;
    std::uint32_t color = 0;
    std::uint32_t category = 0;
    std::string name;
    std::string domain;
  };
  struct OrphanEnd {
    model::NvtxKind kind = model::NvtxKind::kPushPopRange;
    model::Timestamp end = 0;
    std::uint32_t process_id = 0;
    std::uint32_t thread_id = 0;
  };
  struct HeldMark {
    model::NvtxRecord record;  // string views into the current buffer / CUPTI
  };
  struct MarkerAttributes {
    std::uint32_t color = 0;
    std::uint32_t category = 0;
  };

  // `end_thread`: the thread of the END marker (0: unknown).
  void WriteRange(const OpenRange& range, model::Timestamp end, std::uint32_t end_thread);
  model::NvtxKind RangeKindOf(model::NvtxKind seen, std::uint32_t id, bool crossed_threads);
  bool ApplyToHeldMark(std::uint32_t id, const MarkerAttributes& attributes);

  model::RecordSink& sink_;
  NvtxStartEndIds* start_end_ids_;
  std::unordered_map<std::uint32_t, OpenRange> open_;
  std::unordered_map<std::uint32_t, OrphanEnd> orphan_ends_;
  std::unordered_map<std::uint32_t, MarkerAttributes> early_attributes_;
  std::vector<HeldMark> held_marks_;
  std::uint64_t unfinished_ranges_ = 0;
};

}  // namespace gpuscope::inject
