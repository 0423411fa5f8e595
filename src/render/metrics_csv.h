// The CSV of profiled kernels (`gpuscope profile --csv`, `gpuscope stats --page details|raw
// --csv`). One header line, then one row per kernel and metric; every cell quoted. The
// columns are stable (scripts index them by name; append, never reorder):
//   "ID"            n-th profiled kernel of the process, from 0 (ncu's ID)
//   "Process ID"    pid of the profiled process
//   "Kernel Name"   demangled name
//   "Invocation"    n-th launch of this kernel name in the process, from 0
//   "Context", "Stream", "Device"   CUDA ids, as in the trace
//   "CC"            compute capability, "9.0"
//   "Grid Size", "Block Size"       "(262144, 1, 1)", "(256, 1, 1)"
//   "Section Name"  the section's display name; "raw" on the raw page
//   "Metric Name"   the label ncu prints ("Duration"); the CUPTI name on the raw page
//   "Metric Unit"   details: the scaled unit ("usecond", "Ghz", "Kbyte/block", "%");
//                   raw: the metric's base unit from the caller, empty when unknown
//   "Metric Value"  details: the value scaled like the text page, no thousands separators,
//                   two decimals unless integral, "n/a" when missing (what ncu's
//                   `--csv --page details` does); raw: unscaled, plain decimal, every digit
//                   needed to read the double back
//   "Metric Id"     the CUPTI metric the value comes from; empty for derived rows
//                   (formulas, launch configuration, theoretical occupancy)
// A kernel that was not measured has one row: "Section Name" "error", "Metric Name"
// "Not measured", "Metric Value" the reason.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"

namespace gpuscope::render {

// The header line's cells, in order.
const std::vector<std::string>& MetricsCsvColumns();

void WriteDetailsCsv(std::ostream& out,
                     const std::vector<analysis::metrics::KernelProfile>& kernels,
                     const std::vector<const analysis::metrics::Section*>& sections);

void WriteRawCsv(std::ostream& out, const std::vector<analysis::metrics::KernelProfile>& kernels,
                 const std::map<std::string, std::string>& base_units);

}  // namespace gpuscope::render
