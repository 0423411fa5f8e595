// A log-log roofline chart as a self-contained SVG: x is arithmetic intensity (FLOP per
// byte), y is FLOP/s. Roofs: one diagonal per memory level (its bandwidth) and one flat line
// per precision (its peak), from the first result that has them (one device per chart).
// Points: each kernel's main precision at its DRAM, L2 and L1 intensity (circle, square,
// triangle), one colour per kernel, named in the legend. A kernel without FLOPs has no
// intensity and is listed under the chart instead.
#pragma once

#include <string>
#include <vector>

#include "analysis/roofline/roofline.h"

namespace gpuscope::render {

std::string RooflineSvg(const std::vector<analysis::roofline::RooflineResult>& results);

}  // namespace gpuscope::render
