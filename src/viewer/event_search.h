// The viewer's search box (/api/search): the events of a report whose name contains a text,
// ignoring case: kernels, copies and memsets, NVTX ranges and marks, API calls. Each name is
// matched once (names are interned), then the tracks are walked in display order, so a
// report of millions of events answers in one pass.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "viewer/track_index.h"

namespace gpuscope::viewer {

inline constexpr std::size_t kMaxSearchMatches = 200;

// {"total":N,"matches":[{"type","id","track","s","e","name"}]}: every match counted, the
// first `limit` (by start) listed. An empty query matches nothing.
std::string SearchJson(const TrackIndex& index, std::string_view query, std::size_t limit);

}  // namespace gpuscope::viewer
