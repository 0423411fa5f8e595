// Findings printed the way Nsight Compute prints rule results after a section's table:
//     OPT   Est. Speedup: 78.09%
//           The memory access pattern for global loads might not be optimal. On average, ...
//           (wrapped at 100 columns)
// Rules without an estimate print their title on the severity line instead.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analysis/finding.h"

namespace gpuscope::render {

// The findings of one section (by ncu section identifier), in the order given.
std::string FormatFindings(const std::vector<analysis::Finding>& findings,
                           std::string_view section_id);

}  // namespace gpuscope::render
