#include "viewer/level_of_detail.h"

#include <algorithm>

#include "render/escaping.h"

namespace gpuscope::viewer {
namespace {

struct Bucket {
  std::uint64_t pixel = 0;
  std::uint64_t start = 0, end = 0, count = 0, busy = 0;
};

void AppendBucket(std::string& out, const Bucket& bucket, bool& first) {
  out += first ? "" : ",";
  first = false;
  out += "{\"s\":" + std::to_string(bucket.start) + ",\"e\":" + std::to_string(bucket.end) +
         ",\"count\":" + std::to_string(bucket.count) + ",\"busy\":" + std::to_string(bucket.busy) +
         "}";
}

void AppendSlice(std::string& out, const TrackIndex& index, const TrackEvent& event, bool& first) {
  out += first ? "" : ",";
  first = false;
  out += "{\"id\":" + std::to_string(event.id) + ",\"type\":\"";
  out += EventTypeName(event.type());
  out += "\",\"s\":" + std::to_string(event.start) + ",\"e\":" + std::to_string(event.end) +
         ",\"name\":" + render::JsonString(index.Name(event)) +
         ",\"depth\":" + std::to_string(event.depth()) + "}";
}

void AppendCounter(std::string& out, const Track& track, const SliceQuery& query, double width) {
  const std::vector<CounterPoint>& points = track.counter;
  auto first = std::lower_bound(points.begin(), points.end(), query.start,
                                [](const CounterPoint& p, std::uint64_t t) { return p.time < t; });
  // The value in force at the window's left edge comes from the last change before it.
  if (first != points.begin()) --first;
  bool first_entry = true;
  std::uint64_t last_pixel = UINT64_MAX;
  std::string pending;
  for (auto it = first; it != points.end() && it->time <= query.end; ++it) {
    std::uint64_t pixel =
        it->time <= query.start ? 0 : static_cast<std::uint64_t>((it->time - query.start) / width);
    std::string entry =
        "{\"t\":" + std::to_string(it->time) + ",\"v\":" + std::to_string(it->value) + "}";
    // One point per pixel: the last change in it is the value drawn from there on.
    if (pixel != last_pixel && !pending.empty()) {
      out += first_entry ? "" : ",";
      first_entry = false;
      out += pending;
    }
    pending = std::move(entry);
    last_pixel = pixel;
  }
  if (!pending.empty()) out += (first_entry ? "" : ",") + pending;
}

}  // namespace

std::string SlicesJson(const TrackIndex& index, const Track& track, const SliceQuery& query) {
  const double width =
      std::max(1.0, static_cast<double>(query.end - query.start) / std::max(1u, query.pixels));
  std::string slices, buckets;
  bool first_slice = true, first_bucket = true;
  Bucket bucket;
  bool bucket_open = false;
  auto visit = [&](const TrackEvent& event) {
    std::uint64_t duration = event.end - event.start;
    if (static_cast<double>(duration) >= width) {
      AppendSlice(slices, index, event, first_slice);
      return;
    }
    std::uint64_t from = std::max(event.start, query.start);
    auto pixel = static_cast<std::uint64_t>(static_cast<double>(from - query.start) / width);
    if (bucket_open && pixel == bucket.pixel) {
      bucket.start = std::min(bucket.start, event.start);
      bucket.end = std::max(bucket.end, event.end);
      ++bucket.count;
      bucket.busy += duration;
      return;
    }
    if (bucket_open) AppendBucket(buckets, bucket, first_bucket);
    bucket = Bucket{pixel, event.start, event.end, 1, duration};
    bucket_open = true;
  };
  VisibleEvents visible = FindVisible(track, query.start, query.end);
  for (std::uint32_t i : visible.earlier) visit(track.events[i]);
  for (std::size_t i = visible.first; i < visible.last; ++i) visit(track.events[i]);
  if (bucket_open) AppendBucket(buckets, bucket, first_bucket);

  std::string out = "{\"slices\":[" + slices + "],\"buckets\":[" + buckets + "],\"counter\":[";
  if (!track.counter.empty()) AppendCounter(out, track, query, width);
  out += "]}";
  return out;
}

}  // namespace gpuscope::viewer
