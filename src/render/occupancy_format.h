// How `gpuscope occupancy` writes a result: a text report with Nsight Compute's names for
// the block limits ("Block Limit Registers"), or CSV for scripts. The graphs print as tables
// whose rows merge neighbouring points with the same result (the shared-memory graph has
// ~1800 points), and CSV lists every point.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/occupancy.h"
#include "analysis/occupancy_graphs.h"

namespace gpuscope::render {

// The launch, each resource's block limit (the limiter marked), the allocations, active
// warps and occupancy; and when no block fits, a sentence per reason.
void WriteOccupancyText(const analysis::ArchitectureLimits& arch,
                        const analysis::OccupancyInput& input,
                        const analysis::OccupancyResult& result, std::ostream& out);

// One table per graph. A row covers the x values after the previous row's last one up to
// its own last one (a launch between two points allocates like the next point up), and the
// row that holds the launch as given is marked with '*'.
void WriteOccupancyGraphsText(const std::vector<analysis::OccupancyGraph>& graphs,
                              std::ostream& out);

// A header and one row. Unlimited block limits are empty cells; limiters are joined by ';'.
void WriteOccupancyCsv(const analysis::ArchitectureLimits& arch,
                       const analysis::OccupancyInput& input,
                       const analysis::OccupancyResult& result, std::ostream& out);

// graph,x,blocks_per_sm,active_warps_per_sm,occupancy_percent,limiters: every point.
void WriteOccupancyGraphsCsv(const std::vector<analysis::OccupancyGraph>& graphs,
                             std::ostream& out);

// "registers", "registers and warps", "-" for none.
std::string JoinResourceNames(const std::vector<analysis::OccupancyResource>& resources,
                              std::string_view separator);

}  // namespace gpuscope::render
