// Nsight Compute's text pages for profiled kernels: `--page details` (the sections) and
// `--page raw` (every metric by CUPTI name). Per kernel:
//   saxpy(int, float, const float *, float *) (262144, 1, 1)x(256, 1, 1), Context 1, Stream 7,
//   Device 0, CC 9.0
//     Clocks: not locked (SM 1.98 GHz, DRAM 3.20 GHz measured)
//     Section: GPU Speed Of Light Throughput
//     ----------------------- ----------- ------------
//     Metric Name             Metric Unit Metric Value
//     ...
// Body tables (breakdowns, memory tables, stall reasons) follow their section's header
// table under a line with the table's name. gpuscope never locks the GPU's clocks (ncu
// does by default), so the clocks measured during the kernel are printed with its numbers.
// A kernel that was not measured prints `    Not measured: <why>` instead of sections.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"
#include "analysis/source/source_view.h"

namespace gpuscope::render {

struct DetailsOptions {
  // false: only the header tables, like ncu's default `--print-details header`.
  bool body_tables = true;
  // The guided-analysis findings (analysis/rules) after each section's tables, as ncu prints
  // its rule results.
  bool findings = true;
  // profiled_kernels.id -> its source page (analysis/source), for the findings to name their
  // lines as the stored ones do; nullptr or a kernel absent: findings of the metrics alone.
  const std::map<std::int64_t, analysis::source::KernelSource>* sources = nullptr;
};

void PrintDetailsPage(std::ostream& out,
                      const std::vector<analysis::metrics::KernelProfile>& kernels,
                      const std::vector<const analysis::metrics::Section*>& sections,
                      const DetailsOptions& options = {});
std::string FormatDetailsPage(const std::vector<analysis::metrics::KernelProfile>& kernels,
                              const std::vector<const analysis::metrics::Section*>& sections,
                              const DetailsOptions& options = {});

// `--page raw`: per kernel, every metric of the profile by CUPTI name, sorted, with the
// base unit from `base_units` (name -> "nanosecond"; empty when unknown) and the value
// unscaled, thousands grouped.
void PrintRawPage(std::ostream& out, const std::vector<analysis::metrics::KernelProfile>& kernels,
                  const std::map<std::string, std::string>& base_units);

// The kernel's first line: two spaces, demangled name, grid x block, context, stream,
// device and compute capability.
std::string KernelHeaderLine(const analysis::metrics::KernelProfile& kernel);

// "Clocks: not locked (SM 1.98 GHz, DRAM 3.20 GHz measured)"; "n/a" for a clock whose
// metric is missing.
std::string ClocksLine(const analysis::metrics::KernelProfile& kernel);

// "Not measured: <failure>" for a kernel without metric values.
std::string NotMeasuredLine(const analysis::metrics::KernelProfile& kernel);

}  // namespace gpuscope::render
