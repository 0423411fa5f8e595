// The viewer's in-memory picture of one report: per timeline track (GPU stream, host
// thread, NVTX thread, device-memory counter) a start-sorted array of compact events, built
// once at start-up from the reader's streams. 24 bytes per event, so a 10-million-event
// report takes about 240 MB and answers any time window by binary search; everything else
// about an event (all its columns) stays in the report and is read on demand by row id.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/value_range.h"
#include "store/damaged_rows.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::viewer {

// The `type` of docs/viewer-api.md. The values are packed into TrackEvent.
enum class EventType : std::uint8_t { kKernel, kMemcpy, kMemset, kApi, kNvtx, kMark };
std::string_view EventTypeName(EventType type);
std::optional<EventType> ParseEventType(std::string_view name);

struct TrackEvent {
  std::uint64_t start = 0;  // ns, absolute
  std::uint64_t end = 0;    // ns, absolute (== start for NVTX marks)
  std::uint32_t id = 0;     // row id in the event's table
  // Name index (low 24 bits), type (3 bits) and nesting depth (5 bits, saturating): packed
  // because this array is what a 10-million-event report costs.
  std::uint32_t packed = 0;

  std::uint32_t name() const { return packed & 0xFFFFFF; }
  EventType type() const { return static_cast<EventType>((packed >> 24) & 0x7); }
  std::uint32_t depth() const { return packed >> 27; }
  void set(std::uint32_t name, EventType type, std::uint32_t depth) {
    packed = (name & 0xFFFFFF) | (static_cast<std::uint32_t>(type) << 24) |
             (std::min<std::uint32_t>(depth, 31) << 27);
  }
};

struct CounterPoint {
  std::uint64_t time = 0;
  std::int64_t value = 0;
};

struct Track {
  std::string id;     // "gpu0.s7", "t4242", "n4242", "mem0"
  std::string group;  // "GPU 0 (NVIDIA H200)", "Threads", "NVTX"
  std::string label;  // "Stream 7", "Thread 4242", "Device memory"
  std::string kind;   // "gpu", "api", "nvtx", "counter"
  std::uint32_t max_depth = 0;
  std::vector<TrackEvent> events;            // by start (then end, descending: parents first)
  std::vector<std::uint64_t> block_max_end;  // max end of each kBlockSize events
  std::vector<CounterPoint> counter;         // counter tracks: value after each change
  // GPU metric counters (`run --gpu-metrics`): the values are the metric's x `scale`, in `unit`
  // ("%", "GB/s"); empty for device memory (bytes).
  std::string unit;
  std::int64_t scale = 1;

  static constexpr std::size_t kBlockSize = 64;
};

// Where an event with a given correlation id sits.
struct CorrelatedEvent {
  std::uint32_t correlation = 0;
  std::uint32_t track = 0;  // index into tracks()
  std::uint32_t index = 0;  // index into that track's events
};

class TrackIndex {
 public:
  static StatusOr<std::unique_ptr<TrackIndex>> Build(const store::ReportReader& report);
  // One counter track per GPU metric, under its GPU after device memory (gpu_metric_tracks.cpp).
  Status LoadGpuMetrics(const store::ReportReader& report);

  const std::vector<Track>& tracks() const { return tracks_; }
  const Track* FindTrack(std::string_view id) const;
  std::uint32_t TrackIndexOf(std::string_view id) const;  // tracks().size() when unknown
  const std::vector<std::string>& strings() const { return strings_; }
  std::string_view Name(const TrackEvent& event) const { return strings_[event.name()]; }
  std::uint64_t event_count() const { return event_count_; }
  // Events dropped from the index because they have no timestamp (counted, never hidden).
  std::uint64_t untimed_events() const { return untimed_; }
  // Events left out as damaged (store/damaged_rows.h), counted by table and kind.
  const store::DamagedRows& damaged_rows() const { return damaged_; }
  // GPU metric sample values not drawn because they cannot be true
  // (analysis/gpu_metric_samples.h).
  const analysis::ImpossibleValueCounts& impossible_gpu_metric_values() const {
    return impossible_gpu_metric_values_;
  }

  // API calls (gpu == false) or GPU activities (gpu == true) with this correlation id.
  std::vector<CorrelatedEvent> Correlated(std::uint32_t correlation, bool gpu) const;

 private:
  TrackIndex() = default;
  std::uint32_t Intern(std::string_view text);
  Status Load(const store::ReportReader& report);
  void Finish();

  std::vector<Track> tracks_;
  std::unordered_map<std::string, std::uint32_t> track_by_id_;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, std::uint32_t> string_ids_;
  std::vector<CorrelatedEvent> api_by_correlation_;
  std::vector<CorrelatedEvent> gpu_by_correlation_;
  // Correlations are recorded while loading with the track's *pre-sort* position, then
  // remapped once tracks are sorted.
  std::vector<std::pair<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>> pending_api_,
      pending_gpu_;
  std::uint64_t event_count_ = 0;
  std::uint64_t untimed_ = 0;
  store::DamagedRows damaged_;
  analysis::ImpossibleValueCounts impossible_gpu_metric_values_;
};

// The index range [first, last) of `track`'s events that overlap [t0, t1], plus the events
// starting before t0 that are still running at t0 (in `earlier`, start order).
struct VisibleEvents {
  std::vector<std::uint32_t> earlier;
  std::size_t first = 0, last = 0;
};
VisibleEvents FindVisible(const Track& track, std::uint64_t t0, std::uint64_t t1);

}  // namespace gpuscope::viewer
