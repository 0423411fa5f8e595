#include "viewer/track_index.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <numeric>
#include <thread>

#include "analysis/activity_names.h"
#include "analysis/gpu_metric_samples.h"
#include "model/records.h"
#include "store/gpu_metric_tables.h"
#include "store/timeline_rows.h"
#include "util/saturating.h"

namespace gpuscope::viewer {
namespace {

constexpr std::string_view kTypeNames[] = {"kernel", "memcpy", "memset", "api", "nvtx", "mark"};

bool EventBefore(const TrackEvent& a, const TrackEvent& b) {
  // Equal starts: the longer event first, so that an enclosing range precedes what it holds.
  if (a.start != b.start) return a.start < b.start;
  return a.end > b.end;
}

std::string GpuGroup(const store::ReportReader& report, std::uint32_t device) {
  for (const store::DeviceInfo& info : report.devices()) {
    if (info.record.id == device) return "GPU " + std::to_string(device) + " (" + info.name + ")";
  }
  return "GPU " + std::to_string(device);
}

}  // namespace

std::string_view EventTypeName(EventType type) {
  return kTypeNames[static_cast<std::size_t>(type)];
}

std::optional<EventType> ParseEventType(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kTypeNames); ++i) {
    if (kTypeNames[i] == name) return static_cast<EventType>(i);
  }
  return std::nullopt;
}

std::uint32_t TrackIndex::Intern(std::string_view text) {
  auto found = string_ids_.find(std::string(text));
  if (found != string_ids_.end()) return found->second;
  auto id = static_cast<std::uint32_t>(strings_.size());
  strings_.emplace_back(text);
  string_ids_.emplace(std::string(text), id);
  return id;
}

const Track* TrackIndex::FindTrack(std::string_view id) const {
  std::uint32_t index = TrackIndexOf(id);
  return index < tracks_.size() ? &tracks_[index] : nullptr;
}

std::uint32_t TrackIndex::TrackIndexOf(std::string_view id) const {
  auto found = track_by_id_.find(std::string(id));
  return found == track_by_id_.end() ? static_cast<std::uint32_t>(tracks_.size()) : found->second;
}

StatusOr<std::unique_ptr<TrackIndex>> TrackIndex::Build(const store::ReportReader& report) {
  std::unique_ptr<TrackIndex> index(new TrackIndex());
  Status loaded = index->Load(report);
  if (!loaded.ok()) return loaded;
  GPUSCOPE_RETURN_IF_ERROR(index->LoadGpuMetrics(report));
  index->Finish();
  return index;
}

namespace {

// The events of one side of a report (GPU or host), loaded on its own thread with its own
// connection, merged into the index afterwards.
struct TrackSet {
  std::vector<Track> tracks;
  std::unordered_map<std::uint64_t, std::uint32_t> by_key;  // numbers -> index in tracks
  std::vector<std::pair<std::uint32_t, std::pair<std::uint32_t, std::uint32_t>>> correlations;
  std::uint64_t events = 0;
  std::uint64_t untimed = 0;
  Status status;

  template <typename MakeTrack>
  Track& Find(std::uint64_t key, MakeTrack make) {
    auto found = by_key.find(key);
    if (found != by_key.end()) return tracks[found->second];
    by_key.emplace(key, static_cast<std::uint32_t>(tracks.size()));
    tracks.push_back(make());
    return tracks.back();
  }

  std::pair<std::uint32_t, std::uint32_t> Add(Track& track, std::uint64_t start, std::uint64_t end,
                                              std::uint32_t id, std::uint32_t name,
                                              EventType type) {
    TrackEvent& event = track.events.emplace_back();
    event.start = start;
    event.end = end;
    event.id = id;
    event.set(name, type, 0);
    ++events;
    return {static_cast<std::uint32_t>(&track - tracks.data()),
            static_cast<std::uint32_t>(track.events.size() - 1)};
  }
};

Track MakeTrack(std::string id, std::string group, std::string label, std::string kind) {
  Track track;
  track.id = std::move(id);
  track.group = std::move(group);
  track.label = std::move(label);
  track.kind = std::move(kind);
  return track;
}

// Both times present and in order; counts the row as untimed otherwise.
bool Timed(const store::EventSpan& span, TrackSet& set) {
  if (span.start && span.end && *span.end >= *span.start) return true;
  ++set.untimed;
  return false;
}

}  // namespace

Status TrackIndex::Load(const store::ReportReader& report) {
  // The store's timeline rows (the few columns the timeline needs, with the row ids that
  // /api/event looks rows up by) rather than the reader's full-row streams: faster. GPU
  // activities and host events are read at the same time on two connections.
  const store::TimelineRowReader on_reader(report);

  // Names: the report's string ids are our ids (kernel names demangled); copy and memset
  // names are appended now, so that the loading threads only read the table.
  GPUSCOPE_RETURN_IF_ERROR(on_reader.ForEachName([&](std::uint32_t id, std::string_view text) {
    if (id >= strings_.size()) strings_.resize(std::size_t{id} + 1);
    strings_[id] = std::string(text);
  }));
  if (strings_.empty()) strings_.emplace_back();
  for (std::uint32_t id = 0; id < strings_.size(); ++id) string_ids_.emplace(strings_[id], id);
  std::vector<std::uint32_t> copy_names;
  for (int kind = 0; kind <= static_cast<int>(model::CopyKind::kPtoP); ++kind) {
    copy_names.push_back(Intern(analysis::NvprofCopyName(static_cast<model::CopyKind>(kind))));
  }
  const std::uint32_t memset_name = Intern("[CUDA memset]");
  if (strings_.size() > 0xF00000) {
    return Status::Error(
        "report has more than 15 million distinct names; the viewer cannot "
        "index it");
  }
  const auto name_count = static_cast<std::uint32_t>(strings_.size());
  auto known_name = [name_count](std::uint32_t id) { return id < name_count ? id : 0; };

  TrackSet gpu, host;
  auto load_gpu = [&](const store::TimelineRowReader& rows) {
    auto stream_track = [&](std::uint32_t device, std::uint32_t stream) -> Track& {
      return gpu.Find((std::uint64_t{device} << 32) | stream, [&] {
        return MakeTrack("gpu" + std::to_string(device) + ".s" + std::to_string(stream),
                         GpuGroup(report, device), "Stream " + std::to_string(stream), "gpu");
      });
    };
    gpu.status = rows.ForEachKernel([&](const store::KernelSpan& k) {
      if (!Timed(k, gpu)) return;
      auto where = gpu.Add(stream_track(k.device_id, k.stream_id), *k.start, *k.end, k.id,
                           known_name(k.name_id), EventType::kKernel);
      gpu.correlations.push_back({k.correlation_id, where});
    });
    if (!gpu.status.ok()) return;
    gpu.status = rows.ForEachMemcpy([&](const store::MemcpySpan& m) {
      if (!Timed(m, gpu)) return;
      auto where = gpu.Add(stream_track(m.device_id, m.stream_id), *m.start, *m.end, m.id,
                           copy_names[m.copy_kind < copy_names.size() ? m.copy_kind : 0],
                           EventType::kMemcpy);
      // Both the driver call and the runtime call that made it link to the copy.
      gpu.correlations.push_back({m.correlation_id, where});
      if (m.runtime_correlation_id != 0) {
        gpu.correlations.push_back({m.runtime_correlation_id, where});
      }
    });
    if (!gpu.status.ok()) return;
    gpu.status = rows.ForEachMemset([&](const store::MemsetSpan& m) {
      if (!Timed(m, gpu)) return;
      auto where = gpu.Add(stream_track(m.device_id, m.stream_id), *m.start, *m.end, m.id,
                           memset_name, EventType::kMemset);
      gpu.correlations.push_back({m.correlation_id, where});
    });
    if (!gpu.status.ok()) return;
    // Device memory in use per GPU after each allocation or free; a free without a size
    // takes it from its allocation.
    std::map<std::uint32_t, std::int64_t> in_use;
    std::unordered_map<std::uint64_t, std::int64_t> live;
    gpu.status = rows.ForEachMemoryChange([&](const store::MemoryChange& change) {
      // Saturating: sizes come from the report (2^62-byte allocations once overflowed).
      std::int64_t bytes = SaturatingSigned(change.bytes);
      if (change.op == model::MemoryOp::kAlloc) {
        live[change.address] = bytes;
        in_use[change.device_id] = SaturatingAdd(in_use[change.device_id], bytes);
      } else {
        auto found = live.find(change.address);
        if (bytes == 0 && found != live.end()) bytes = found->second;
        if (found != live.end()) live.erase(found);
        in_use[change.device_id] = SaturatingSub(in_use[change.device_id], bytes);
      }
      Track& track = gpu.Find((std::uint64_t{1} << 40) | change.device_id, [&] {
        return MakeTrack("mem" + std::to_string(change.device_id),
                         GpuGroup(report, change.device_id), "Device memory", "counter");
      });
      track.counter.push_back({change.timestamp, in_use[change.device_id]});
    });
  };
  auto load_host = [&](const store::TimelineRowReader& rows) {
    auto thread_track = [&](bool nvtx, std::uint32_t tid) -> Track& {
      return host.Find((std::uint64_t{nvtx} << 32) | tid, [&] {
        std::string number = std::to_string(tid);
        return nvtx ? MakeTrack("n" + number, "NVTX", "Thread " + number, "nvtx")
                    : MakeTrack("t" + number, "Threads", "Thread " + number, "api");
      });
    };
    host.status = rows.ForEachApiCall([&](const store::ApiSpan& a) {
      if (!Timed(a, host)) return;
      auto where = host.Add(thread_track(false, a.thread_id), *a.start, *a.end, a.id,
                            known_name(a.name_id), EventType::kApi);
      host.correlations.push_back({a.correlation_id, where});
    });
    if (!host.status.ok()) return;
    // A range that never ended is drawn up to the end of the recording rather than left out.
    const model::Timestamp recording_end = report.process().end;
    host.status = rows.ForEachNvtx([&](const store::NvtxSpan& n) {
      if (!n.start) {
        ++host.untimed;
        return;
      }
      std::uint64_t start = *n.start;
      std::uint64_t end = n.end ? *n.end : std::max<std::uint64_t>(start, recording_end);
      bool mark = n.kind == model::NvtxKind::kMark;
      host.Add(thread_track(true, n.thread_id), start, mark ? start : std::max(start, end), n.id,
               known_name(n.name_id), mark ? EventType::kMark : EventType::kNvtx);
    });
  };

  // A second connection for the GPU side; without one (a report being written, say) both
  // sides are read one after the other on the reader's connection.
  StatusOr<std::unique_ptr<store::TimelineRowReader>> second =
      store::TimelineRowReader::WithOwnConnection(report);
  if (second.ok()) {
    std::thread gpu_thread([&] { load_gpu(*second.value()); });
    load_host(on_reader);
    gpu_thread.join();
    if (!gpu.status.ok()) {
      // The second connection opened but could not read (a live report's WAL it may not
      // map, say): the reader's own connection can, so read the GPU side again there.
      gpu = TrackSet{};
      load_gpu(on_reader);
    } else {
      damaged_ += second.value()->damaged_rows();
    }
  } else {
    load_gpu(on_reader);
    load_host(on_reader);
  }
  GPUSCOPE_RETURN_IF_ERROR(gpu.status);
  GPUSCOPE_RETURN_IF_ERROR(host.status);
  damaged_ += on_reader.damaged_rows();

  for (TrackSet* set : {&gpu, &host}) {
    auto offset = static_cast<std::uint32_t>(tracks_.size());
    for (Track& track : set->tracks) {
      track_by_id_.emplace(track.id, static_cast<std::uint32_t>(tracks_.size()));
      tracks_.push_back(std::move(track));
    }
    auto& pending = set == &gpu ? pending_gpu_ : pending_api_;
    pending = std::move(set->correlations);
    for (auto& entry : pending) entry.second.first += offset;
    event_count_ += set->events;
    untimed_ += set->untimed;
  }
  return {};
}

void TrackIndex::Finish() {
  // Sort each track, remembering where every loaded event went so that the correlation
  // entries (recorded with load positions) can be pointed at the sorted positions.
  std::vector<std::vector<std::uint32_t>> moved(tracks_.size());
  for (std::size_t t = 0; t < tracks_.size(); ++t) {
    Track& track = tracks_[t];
    if (!std::is_sorted(track.events.begin(), track.events.end(), EventBefore)) {
      std::vector<std::uint32_t> order(track.events.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return EventBefore(track.events[a], track.events[b]);
      });
      std::vector<TrackEvent> sorted(track.events.size());
      moved[t].resize(order.size());
      for (std::uint32_t i = 0; i < order.size(); ++i) {
        sorted[i] = track.events[order[i]];
        moved[t][order[i]] = i;
      }
      track.events = std::move(sorted);
    }
    // Nesting depth: how many earlier events are still open when this one starts.
    std::vector<std::uint64_t> open_ends;
    for (TrackEvent& event : track.events) {
      while (!open_ends.empty() && open_ends.back() <= event.start) open_ends.pop_back();
      // A child that outlives its parent (clock skew) still nests under it.
      event.set(event.name(), event.type(), static_cast<std::uint32_t>(open_ends.size()));
      track.max_depth = std::max<std::uint32_t>(track.max_depth, event.depth());
      if (event.end > event.start) open_ends.push_back(event.end);
    }
    for (std::size_t b = 0; b < track.events.size(); b += Track::kBlockSize) {
      std::uint64_t max_end = 0;
      for (std::size_t i = b; i < std::min(track.events.size(), b + Track::kBlockSize); ++i) {
        max_end = std::max(max_end, track.events[i].end);
      }
      track.block_max_end.push_back(max_end);
    }
  }
  auto resolve = [&](auto& pending, std::vector<CorrelatedEvent>& out) {
    out.reserve(pending.size());
    for (const auto& [correlation, where] : pending) {
      auto [track, index] = where;
      if (!moved[track].empty()) index = moved[track][index];
      out.push_back({correlation, track, index});
    }
    pending.clear();
    pending.shrink_to_fit();
    std::sort(out.begin(), out.end(), [](const CorrelatedEvent& a, const CorrelatedEvent& b) {
      return a.correlation < b.correlation;
    });
  };
  resolve(pending_api_, api_by_correlation_);
  resolve(pending_gpu_, gpu_by_correlation_);

  // Display order: per GPU its streams (by number) then its memory counter; then host
  // threads; then NVTX threads.
  auto rank = [](const Track& track) {
    int kind = track.kind == "gpu" ? 0 : track.kind == "counter" ? 1 : track.kind == "api" ? 2 : 3;
    return kind;
  };
  std::vector<std::uint32_t> order(tracks_.size());
  std::iota(order.begin(), order.end(), 0);
  auto number_after = [](const std::string& id, char marker) -> std::uint64_t {
    std::size_t at = id.rfind(marker);
    return at == std::string::npos ? 0 : std::strtoull(id.c_str() + at + 1, nullptr, 10);
  };
  auto device_of = [&](const Track& track) -> std::uint64_t {
    if (track.kind == "gpu") return std::strtoull(track.id.c_str() + 3, nullptr, 10);
    if (track.kind == "counter") return std::strtoull(track.id.c_str() + 3, nullptr, 10);
    return 0;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const Track& x = tracks_[a];
    const Track& y = tracks_[b];
    bool x_gpu = x.kind == "gpu" || x.kind == "counter";
    bool y_gpu = y.kind == "gpu" || y.kind == "counter";
    if (x_gpu != y_gpu) return x_gpu;
    if (x_gpu && device_of(x) != device_of(y)) return device_of(x) < device_of(y);
    if (rank(x) != rank(y)) return rank(x) < rank(y);
    return number_after(x.id, x.kind == "gpu" ? 's' : x.id[0]) <
           number_after(y.id, y.kind == "gpu" ? 's' : y.id[0]);
  });
  std::vector<std::uint32_t> new_position(tracks_.size());
  std::vector<Track> reordered;
  reordered.reserve(tracks_.size());
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    new_position[order[i]] = i;
    reordered.push_back(std::move(tracks_[order[i]]));
  }
  tracks_ = std::move(reordered);
  track_by_id_.clear();
  for (std::uint32_t i = 0; i < tracks_.size(); ++i) track_by_id_.emplace(tracks_[i].id, i);
  for (auto* list : {&api_by_correlation_, &gpu_by_correlation_}) {
    for (CorrelatedEvent& event : *list) event.track = new_position[event.track];
  }
}

std::vector<CorrelatedEvent> TrackIndex::Correlated(std::uint32_t correlation, bool gpu) const {
  const std::vector<CorrelatedEvent>& list = gpu ? gpu_by_correlation_ : api_by_correlation_;
  auto [first, last] =
      std::equal_range(list.begin(), list.end(), CorrelatedEvent{correlation, 0, 0},
                       [](const CorrelatedEvent& a, const CorrelatedEvent& b) {
                         return a.correlation < b.correlation;
                       });
  return std::vector<CorrelatedEvent>(first, last);
}

VisibleEvents FindVisible(const Track& track, std::uint64_t t0, std::uint64_t t1) {
  VisibleEvents visible;
  const std::vector<TrackEvent>& events = track.events;
  auto by_start = [](const TrackEvent& event, std::uint64_t t) { return event.start < t; };
  visible.first = static_cast<std::size_t>(
      std::lower_bound(events.begin(), events.end(), t0, by_start) - events.begin());
  // Events starting exactly at t1 are still visible (a mark at the right edge).
  visible.last = static_cast<std::size_t>(
      std::upper_bound(events.begin(), events.end(), t1,
                       [](std::uint64_t t, const TrackEvent& event) { return t < event.start; }) -
      events.begin());
  if (visible.last < visible.first) visible.last = visible.first;
  // Earlier events still running at t0: walk blocks backwards, skipping every block whose
  // latest end is before t0 (a handful of comparisons per 64 events).
  if (visible.first > 0) {
    std::size_t block = (visible.first - 1) / Track::kBlockSize;
    for (std::size_t b = block + 1; b-- > 0;) {
      if (track.block_max_end[b] <= t0) continue;
      std::size_t begin = b * Track::kBlockSize;
      std::size_t end = std::min(visible.first, begin + Track::kBlockSize);
      for (std::size_t i = end; i-- > begin;) {
        if (events[i].end > t0) visible.earlier.push_back(static_cast<std::uint32_t>(i));
      }
    }
    std::reverse(visible.earlier.begin(), visible.earlier.end());
  }
  return visible;
}

Status TrackIndex::LoadGpuMetrics(const store::ReportReader& report) {
  StatusOr<std::vector<store::StoredGpuMetric>> metrics = store::ReadGpuMetrics(report);
  if (!metrics.ok()) return metrics.status();
  if (metrics->empty()) return {};
  // Counter values are integers: metrics are kept in thousandths of their unit (0.001 %,
  // MB/s for GB/s), which the tooltip divides back.
  constexpr std::int64_t kScale = 1000;
  std::map<std::uint32_t, std::vector<std::pair<std::size_t, double>>> by_device;  // track, factor
  for (const store::StoredGpuMetric& metric : *metrics) {
    const bool bytes = metric.unit == "byte/second";
    Track track = MakeTrack("mem" + std::to_string(metric.device_id) + ".m" +
                                std::to_string(metric.index + 1),
                            GpuGroup(report, metric.device_id), metric.label, "counter");
    track.unit = bytes ? "GB/s" : metric.unit;
    track.scale = kScale;
    by_device[metric.device_id].emplace_back(tracks_.size(), (bytes ? 1e-9 : 1.0) * kScale);
    track_by_id_.emplace(track.id, static_cast<std::uint32_t>(tracks_.size()));
    tracks_.push_back(std::move(track));
  }
  return analysis::ForEachPossibleGpuMetricSample(
      report, *metrics,
      [&](const store::StoredGpuMetricSample& sample) {
        const auto& device = by_device[sample.device_id];
        for (std::size_t m = 0; m < sample.values.size() && m < device.size(); ++m) {
          if (std::isnan(sample.values[m])) continue;
          const double value = sample.values[m] * device[m].second;
          tracks_[device[m].first].counter.push_back(
              {sample.start, static_cast<std::int64_t>(std::clamp(value, -9e18, 9e18))});
        }
        return true;
      },
      impossible_gpu_metric_values_);
}

}  // namespace gpuscope::viewer
