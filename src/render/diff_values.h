// How `gpuscope diff` names and shows what it compares, shared by its text, CSV and JSON
// outputs: metrics by Nsight Compute's label (the section catalog knows it) rather than the
// CUPTI id, before and after scaled to one unit, launch configurations and their change.
#pragma once

#include <string>
#include <vector>

#include "analysis/diff/report_diff.h"

namespace gpuscope::render {

// ncu's label of the metric ("Duration", "Compute (SM) Throughput"); the CUPTI id for a
// metric no section row shows alone; the row's own name for durations and NVTX ranges.
std::string MetricLabel(const analysis::diff::MetricDelta& delta);

// Before and after in one unit, chosen for the larger of the two (ncu's scaling: "us",
// "Kbyte", "Ghz"), thousands grouped.
struct ScaledDelta {
  std::string unit;
  std::string before;
  std::string after;
};
ScaledDelta ScaleDelta(const analysis::diff::MetricDelta& delta);

// "(4,1,1)", or "(4,1,1), (8,1,1)" for a kernel launched with several; `grid` picks the
// grid, else the block.
std::string ConfigText(const std::vector<analysis::diff::LaunchConfig>& configs, bool grid);

// "grid (4,1,1)  block (128,1,1)", with "before -> after" for a dimension that changed.
std::string ConfigChangeText(const std::vector<analysis::diff::LaunchConfig>& before,
                             const std::vector<analysis::diff::LaunchConfig>& after);

}  // namespace gpuscope::render
