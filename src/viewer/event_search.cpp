#include "viewer/event_search.h"

#include <algorithm>
#include <cctype>
#include <tuple>
#include <vector>

#include "render/escaping.h"

namespace gpuscope::viewer {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

struct Match {
  std::uint64_t start;
  std::uint32_t track;
  std::uint32_t index;
};

}  // namespace

std::string SearchJson(const TrackIndex& index, std::string_view query, std::size_t limit) {
  const std::string needle = Lower(query);
  std::vector<bool> name_matches(index.strings().size(), false);
  if (!needle.empty()) {
    for (std::size_t i = 0; i < index.strings().size(); ++i) {
      name_matches[i] = Lower(index.strings()[i]).find(needle) != std::string::npos;
    }
  }
  std::uint64_t total = 0;
  std::vector<Match> first;  // the earliest `limit` matches, kept as a max-heap by start
  auto later = [](const Match& a, const Match& b) {
    return std::tie(a.start, a.track, a.index) < std::tie(b.start, b.track, b.index);
  };
  const std::vector<Track>& tracks = index.tracks();
  for (std::uint32_t t = 0; t < tracks.size() && !needle.empty(); ++t) {
    const std::vector<TrackEvent>& events = tracks[t].events;
    for (std::uint32_t e = 0; e < events.size(); ++e) {
      if (!name_matches[events[e].name()]) continue;
      ++total;
      Match match{events[e].start, t, e};
      if (first.size() < limit) {
        first.push_back(match);
        std::push_heap(first.begin(), first.end(), later);
      } else if (limit > 0 && later(match, first.front())) {
        std::pop_heap(first.begin(), first.end(), later);
        first.back() = match;
        std::push_heap(first.begin(), first.end(), later);
      }
    }
  }
  std::sort_heap(first.begin(), first.end(), later);
  std::string out = "{\"total\":" + std::to_string(total) + ",\"matches\":[";
  for (std::size_t i = 0; i < first.size(); ++i) {
    const Track& track = tracks[first[i].track];
    const TrackEvent& event = track.events[first[i].index];
    out += (i ? "," : "");
    out += "{\"type\":\"" + std::string(EventTypeName(event.type())) +
           "\",\"id\":" + std::to_string(event.id) + ",\"track\":" + render::JsonString(track.id) +
           ",\"s\":" + std::to_string(event.start) + ",\"e\":" + std::to_string(event.end) +
           ",\"name\":" + render::JsonString(index.Name(event)) + "}";
  }
  return out + "]}";
}

}  // namespace gpuscope::viewer
