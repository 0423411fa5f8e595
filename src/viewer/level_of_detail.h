// What /api/slices answers for one track and time window: events at least one pixel wide
// one by one, narrower ones merged into per-pixel buckets (count and busy time), counter
// values thinned to one per pixel. The answer has O(px) entries whatever the zoom; the
// work is one binary search plus a pass over the events inside the window.
#pragma once

#include <cstdint>
#include <string>

#include "viewer/track_index.h"

namespace gpuscope::viewer {

struct SliceQuery {
  std::uint64_t start = 0;  // ns, absolute
  std::uint64_t end = 0;    // ns, absolute, > start
  std::uint32_t pixels = 1;
};

// Most pixels a request may ask for (a 16K-wide screen and some).
inline constexpr std::uint32_t kMaxPixels = 20000;

// The JSON object of docs/viewer-api.md: {"slices":[...],"buckets":[...],"counter":[...]}.
std::string SlicesJson(const TrackIndex& index, const Track& track, const SliceQuery& query);

}  // namespace gpuscope::viewer
