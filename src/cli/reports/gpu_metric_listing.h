// `gpuscope run --gpu-metrics --list [--chip X]` (or `--gpu-metrics-set list`): the GPU metric
// sets, each metric checked against the chip's PM sampling catalog with CUPTI's host API and each
// set configured as the injection will configure it. Needs no GPU.
#pragma once

#include <ostream>
#include <string>

#include "util/status.h"

namespace gpuscope::cli {

// Errors: the chip is unknown or CUPTI's host library cannot be loaded. A set or metric CUPTI
// refuses is printed as such (and makes the result an error, so that CI notices).
Status PrintGpuMetricSets(std::ostream& out, const std::string& chip);

}  // namespace gpuscope::cli
