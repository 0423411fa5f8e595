// `gpuscope profile --query-metrics [--chip X] [--csv]`: the base metrics of a chip, as
// `ncu --query-metrics` lists them, from CUPTI's host API (no GPU needed).
#pragma once

#include <ostream>
#include <string>

#include "util/status.h"

namespace gpuscope::cli {

Status PrintMetricQuery(std::ostream& out, const std::string& chip, bool csv);

}  // namespace gpuscope::cli
