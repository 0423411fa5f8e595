// GPU metric samples (`run --gpu-metrics`) as analysis and the layers above it read them: each
// value that cannot be true for its metric's unit (value_range.h: an infinity, a negative rate,
// a percentage far out of range) is made NaN, the samples' own "not evaluated", so every reader
// leaves it out as it leaves out what the sampler could not evaluate, and is counted by why for
// the command's one warning (ImpossibleValueWarning with CheckedValues::kGpuMetricSamples).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "analysis/value_range.h"
#include "store/gpu_metric_tables.h"
#include "store/report_reader.h"
#include "util/status.h"

namespace gpuscope::analysis {

// store::ForEachGpuMetricSample with the values checked against `metrics` (ReadGpuMetrics of
// the same report). NaN values stay NaN and are not counted: they are legitimate.
Status ForEachPossibleGpuMetricSample(
    const store::ReportReader& report, const std::vector<store::StoredGpuMetric>& metrics,
    const std::function<bool(const store::StoredGpuMetricSample&)>& fn,
    ImpossibleValueCounts& impossible, std::uint64_t* damaged = nullptr);

}  // namespace gpuscope::analysis
