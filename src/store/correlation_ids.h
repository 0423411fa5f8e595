// The correlation ids that link API calls to the GPU work they started, as sorted sets: a
// Chrome trace draws a flow arrow only where both ends exist. One column each, much cheaper
// than decoding the rows.
#pragma once

#include <cstdint>
#include <vector>

#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::store {

// The ids of kernels, copies (the runtime call's id when the copy has one, else the driver
// call's) and memsets: sorted, each once.
StatusOr<std::vector<std::uint32_t>> GpuCorrelationIds(const ReportReader& report);

// The ids of API calls: sorted, each once.
StatusOr<std::vector<std::uint32_t>> ApiCorrelationIds(const ReportReader& report);

}  // namespace gpuscope::store
