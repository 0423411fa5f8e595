// `gpuscope roofline [--csv] [--svg FILE] REPORT...`: the roofline of every profiled kernel
// of reports written by `gpuscope profile` (achieved FLOP/s per precision, bandwidth and
// arithmetic intensity per memory level, the device's roofs, and a verdict: memory-,
// compute- or latency-bound with the headroom to the roof), and optionally the chart.
#pragma once

#include <span>
#include <string>

namespace gpuscope::cli {

// 0 when printed; 2 for usage errors; 1 when a report cannot be read, holds no profiled
// kernels, or the SVG cannot be written.
int RooflineCommand(std::span<const std::string> args);

std::string RooflineUsage();

}  // namespace gpuscope::cli
