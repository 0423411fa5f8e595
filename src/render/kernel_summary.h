// `--print-summary per-kernel`: launches of the same kernel with the same grid and block
// on the same device are one group; each row shows the Minimum, Maximum and Average over
// the group's measured launches, in the unit the average is scaled to, under ncu's header
// line with ", Invocations N" appended:
//   saxpy(int, float, const float *, float *) (262144, 1, 1)x(256, 1, 1), Context 1, Stream 7,
//   Device 0, CC 9.0, Invocations 3
//     Section: GPU Speed Of Light Throughput
//     ----------- ----------- ------- ------- -------
//     Metric Name Metric Unit Minimum Maximum Average
// Groups appear in the order of their first launch.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"

namespace gpuscope::render {

void PrintKernelSummary(std::ostream& out,
                        const std::vector<analysis::metrics::KernelProfile>& kernels,
                        const std::vector<const analysis::metrics::Section*>& sections);
// The same as CSV: one row per group and metric, every cell quoted, numbers unscaled by
// thousands separators; columns (append, never reorder): "Kernel Name", "Context", "Stream",
// "Device", "CC", "Grid Size", "Block Size" (of the group's first launch), "Invocations",
// "Measured" (launches with values), "Section Name", "Metric Name", "Metric Unit", "Minimum",
// "Maximum", "Average" ("n/a" when no launch has the value). A group with no measured launch
// has one row: "Section Name" "error", "Metric Name" "Not measured", the reason as the values.
const std::vector<std::string>& KernelSummaryCsvColumns();
void WriteKernelSummaryCsv(std::ostream& out,
                           const std::vector<analysis::metrics::KernelProfile>& kernels,
                           const std::vector<const analysis::metrics::Section*>& sections);

std::string FormatKernelSummary(const std::vector<analysis::metrics::KernelProfile>& kernels,
                                const std::vector<const analysis::metrics::Section*>& sections);

}  // namespace gpuscope::render
