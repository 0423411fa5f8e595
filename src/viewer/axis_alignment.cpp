#include "viewer/axis_alignment.h"

#include "render/escaping.h"

namespace gpuscope::viewer {

StatusOr<AxisAlignment> ParseAxisAlignment(std::string_view text) {
  AxisAlignment alignment;
  if (text == "starts") return alignment;
  if (text == "absolute") {
    alignment.mode = AxisAlignment::Mode::kAbsolute;
    return alignment;
  }
  constexpr std::string_view kNvtx = "nvtx:";
  if (text.starts_with(kNvtx) && text.size() > kNvtx.size()) {
    alignment.mode = AxisAlignment::Mode::kNvtxRange;
    alignment.range = std::string(text.substr(kNvtx.size()));
    return alignment;
  }
  return Status::Error("--align expects " + std::string(kAxisAlignmentSyntax) + ", not '" +
                       std::string(text) + "'");
}

std::optional<std::uint64_t> FirstNvtxRangeStart(const TrackIndex& index, std::string_view name) {
  // Names are interned: find the one string, then the earliest event carrying it.
  std::optional<std::uint32_t> name_id;
  const std::vector<std::string>& strings = index.strings();
  for (std::size_t i = 0; i < strings.size() && !name_id; ++i) {
    if (strings[i] == name) name_id = static_cast<std::uint32_t>(i);
  }
  if (!name_id) return std::nullopt;
  std::optional<std::uint64_t> first;
  for (const Track& track : index.tracks()) {
    if (track.kind != "nvtx") continue;
    // Events are in start order: the track's first match is its earliest.
    for (const TrackEvent& event : track.events) {
      if (first && event.start >= *first) break;
      if (event.type() == EventType::kNvtx && event.name() == *name_id) {
        first = event.start;
        break;
      }
    }
  }
  return first;
}

StatusOr<std::vector<std::uint64_t>> NvtxRangeAnchors(const std::vector<const TrackIndex*>& indexes,
                                                      const std::vector<std::string>& labels,
                                                      std::string_view range) {
  std::vector<std::uint64_t> anchors;
  std::string missing;
  std::size_t missing_count = 0;
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    std::optional<std::uint64_t> start = FirstNvtxRangeStart(*indexes[i], range);
    if (start) {
      anchors.push_back(*start);
      continue;
    }
    missing += (missing_count++ ? ", " : "") + labels[i];
  }
  if (missing_count > 0) {
    return Status::Error("cannot align on NVTX range '" + std::string(range) +
                         "': no range of that name in " +
                         (missing_count == 1 ? "report " : "reports ") + missing);
  }
  return anchors;
}

std::string AxisAlignmentJson(const AxisAlignment& alignment) {
  switch (alignment.mode) {
    case AxisAlignment::Mode::kStarts:
      return "{\"mode\":\"starts\"}";
    case AxisAlignment::Mode::kAbsolute:
      return "{\"mode\":\"absolute\"}";
    case AxisAlignment::Mode::kNvtxRange:
      break;
  }
  return "{\"mode\":\"nvtx\",\"range\":" + render::JsonString(alignment.range) + "}";
}

}  // namespace gpuscope::viewer
