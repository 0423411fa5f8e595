// The occupancy graphs as one standalone SVG file: three small line charts side by side
// (active warps per SM against block size, registers per thread and shared memory per
// block), each with the launch as given marked. Standalone means no scripts, no external
// fonts or styles, so it opens in a browser and embeds in reports as is.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/occupancy.h"
#include "analysis/occupancy_graphs.h"

namespace gpuscope::analysis {

std::string OccupancySvg(const ArchitectureLimits& arch, const OccupancyInput& input,
                         const OccupancyResult& result, const std::vector<OccupancyGraph>& graphs);

// Text for SVG/XML content and attribute values: & < > " ' become entities, and control
// characters XML 1.0 forbids become U+FFFD.
std::string XmlEscaped(std::string_view text);

}  // namespace gpuscope::analysis
