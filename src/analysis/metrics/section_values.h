// The values of a kernel's sections: one row per catalog entry, evaluated from the kernel's
// metrics, its launch configuration and our occupancy calculator, and scaled for display
// the way Nsight Compute scales them (value_format.h). Every printer starts from these rows.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/metrics/kernel_profile.h"
#include "analysis/metrics/section_catalog.h"
#include "analysis/metrics/value_format.h"
#include "analysis/occupancy.h"

namespace gpuscope::analysis::metrics {

struct MetricRow {
  std::string section;  // the section's display name
  std::string table;    // empty: the header table; else the body table's name
  std::string label;
  // In the base unit (ns, cycles/s, bytes, ...); unset: "n/a" (a metric that was not
  // evaluated, an input of a formula missing, a launch that was not traced).
  std::optional<double> value;
  ScaledValue scaled;     // for display; its units are meaningful also when value is unset
  std::string metric_id;  // the CUPTI name; empty for derived rows
  const SectionEntry* entry = nullptr;  // the catalog entry (for rescaling aggregates)
};

// The rows of `sections` for one kernel, in catalog order.
std::vector<MetricRow> EvaluateSections(const KernelProfile& profile,
                                        const std::vector<const Section*>& sections);

// The occupancy calculator's input for a profiled launch (OccupancyInputForKernel's rules);
// with the carveout the kernel record says it ran with, or without (the preference's).
OccupancyInput OccupancyInputFor(const KernelProfile& profile, bool with_carveout);

// The theoretical occupancy of the kernel's launch on its device; an error (one line) when
// the launch was not traced or the device's compute capability is unknown to the calculator.
StatusOr<OccupancyResult> TheoreticalOccupancy(const KernelProfile& profile);

// The launch's grid and block as ncu writes them: "(262144, 1, 1)".
std::string FormatDim3(const std::array<std::int32_t, 3>& dims);

}  // namespace gpuscope::analysis::metrics
