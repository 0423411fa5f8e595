// Findings printed the way Nsight Compute prints rule results after a section's table:
//     OPT   Est. Speedup: 78.09%
//           The memory access pattern for global loads might not be optimal. On average, ...
//           (wrapped at 100 columns)
// Rules without an estimate print their title on the severity line instead.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rules/finding.h"

namespace gpuscope::analysis {

// The findings of one section (by ncu section identifier), in the order given.
std::string FormatFindings(const std::vector<Finding>& findings, std::string_view section_id);

// Findings by profiled_kernels.id, for printers that go kernel by kernel.
using FindingsByKernel = std::map<std::int64_t, std::vector<Finding>>;

// The text lines of `text` wrapped at `width` columns, on word boundaries.
std::vector<std::string> WrapWords(std::string_view text, std::size_t width);

}  // namespace gpuscope::analysis
