// Counter-data images come from report files, which may be damaged or crafted, and CUPTI's host
// library does not check them: it reads past the end of an image cut short (4096 of 641,329
// bytes) or follows a flipped offset, and the process dies with SIGSEGV (found by tests/fuzz).
// So each image is evaluated in a child process (fork): a crash, or an evaluation that never
// ends, costs that kernel's values and becomes an error, not the end of `stats --page`, `view`
// or `report`. The child only evaluates and writes its answer to a pipe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupti/host/metric_host.h"
#include "util/status.h"

namespace gpuscope::evaluate {

// MetricHost::Evaluate(counter_data, range, names), run in a child process. One evaluation at a
// time per process (the fork happens under a lock, so that no other thread is inside CUPTI's
// library when the child starts). `limit` bounds the child's time; it is killed past it.
StatusOr<std::vector<std::optional<double>>> EvaluateIsolated(
    cupti::host::MetricHost& host, std::span<const std::uint8_t> counter_data, std::size_t range,
    const std::vector<std::string>& names,
    std::chrono::milliseconds limit = std::chrono::seconds(60));

}  // namespace gpuscope::evaluate
