// A log-log roofline chart as a self-contained SVG: x is arithmetic intensity (FLOP per
// byte), y is FLOP/s. Roofs: one diagonal per memory level (its bandwidth) and one flat line
// per precision (its peak), from the first result that has them (one device per chart).
// Points: each kernel's main precision at its DRAM, L2 and L1 intensity (circle, square,
// triangle), one colour and fill per kernel (palette colours, then solid, hollow, half-tone
// markers, then darker shades), named in the legend. Roof labels are placed so that none
// overlaps another (equal peaks share one label); the legend is as wide as its longest line.
// A kernel without FLOPs has no intensity and is listed under the chart instead.
#pragma once

#include <string>
#include <vector>

#include "analysis/roofline/roofline.h"

namespace gpuscope::render {

std::string RooflineSvg(const std::vector<analysis::roofline::RooflineResult>& results);

}  // namespace gpuscope::render
