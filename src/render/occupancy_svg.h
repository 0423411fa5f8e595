// The occupancy graphs as one standalone SVG file: three small line charts side by side
// (active warps per SM against block size, registers per thread and shared memory per
// block), each with the launch as given marked. Standalone means no scripts, no external
// fonts or styles, so it opens in a browser and embeds in reports as is.
#pragma once

#include <string>
#include <vector>

#include "analysis/occupancy.h"
#include "analysis/occupancy_graphs.h"

namespace gpuscope::render {

std::string OccupancySvg(const analysis::ArchitectureLimits& arch,
                         const analysis::OccupancyInput& input,
                         const analysis::OccupancyResult& result,
                         const std::vector<analysis::OccupancyGraph>& graphs);

}  // namespace gpuscope::render
