// Work over many reports on a few threads: each report is independent, so one task per
// report, taken in turn by min(hardware threads, reports) workers.
#pragma once

#include <cstddef>
#include <functional>

#include "util/status.h"

namespace gpuscope::analysis::ranks {

// Calls task(i) for every i in [0, count), on up to `threads` workers (0: one per hardware
// thread). Every task runs even when one fails (each writes only its own result); the error
// of the lowest failing i is returned, so the message does not depend on thread timing.
Status ForEachReportInParallel(std::size_t count, const std::function<Status(std::size_t)>& task,
                               std::size_t threads = 0);

}  // namespace gpuscope::analysis::ranks
