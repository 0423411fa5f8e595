// The roofline of profiled kernels as text (one block per kernel: FLOP/s per precision,
// bandwidth and arithmetic intensity per memory level, the verdict) and as CSV (one row per
// kernel, unscaled base units, for scripts). Values print like Nsight Compute's pages
// (analysis/metrics/value_format.h): "3.45 Tbyte/s", "31.04 Tflop/s".
#pragma once

#include <ostream>
#include <vector>

#include "analysis/roofline/roofline.h"

namespace gpuscope::render {

void WriteRooflineText(const analysis::roofline::RooflineResult& result, std::ostream& out);

// Header line, then one line per result.
void WriteRooflineCsv(const std::vector<analysis::roofline::RooflineResult>& results,
                      std::ostream& out);

}  // namespace gpuscope::render
