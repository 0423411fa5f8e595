// How several reports share the viewer's one time axis (`gpuscope view|report --align`):
//
//   starts         each report's start at the same axis time (the default: runs recorded
//                  apart, processes of different jobs)
//   absolute       CUPTI's clock as it is (processes of one run, which share it)
//   nvtx:NAME      the first instance of the NVTX range NAME starts at the same axis time in
//                  every report (step 3 of two runs side by side); a report without such a
//                  range is an error that names it
//
// The page moves each report by an offset (src/viewer/web/report_alignment.js); the server
// tells it where the chosen range starts in each report (/api/alignment, docs/viewer-api.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"
#include "viewer/track_index.h"

namespace gpuscope::viewer {

struct AxisAlignment {
  enum class Mode { kStarts, kAbsolute, kNvtxRange };
  Mode mode = Mode::kStarts;
  std::string range;  // kNvtxRange: the range's name (any domain), as the program named it
};

// "starts", "absolute" or "nvtx:NAME" (NAME non-empty, taken as it is).
StatusOr<AxisAlignment> ParseAxisAlignment(std::string_view text);
inline constexpr std::string_view kAxisAlignmentSyntax = "starts|absolute|nvtx:NAME";

// The start (absolute ns) of the first instance of the NVTX range `name` in `index`, or
// nullopt when the report has none (marks do not count: they have no extent to align).
std::optional<std::uint64_t> FirstNvtxRangeStart(const TrackIndex& index, std::string_view name);

// Per report, where the first instance of `range` starts; an error naming every report that
// has no such range. `labels[i]` names report i in that message ("#1 (b.sqlite)").
StatusOr<std::vector<std::uint64_t>> NvtxRangeAnchors(const std::vector<const TrackIndex*>& indexes,
                                                      const std::vector<std::string>& labels,
                                                      std::string_view range);

// {"mode":"starts"|"absolute"|"nvtx"[,"range":NAME]}: the alignment the command line asked
// for, what the page starts with.
std::string AxisAlignmentJson(const AxisAlignment& alignment);

}  // namespace gpuscope::viewer
