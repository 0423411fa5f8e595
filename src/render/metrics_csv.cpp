#include "render/metrics_csv.h"

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::metrics::EvaluateSections;
using analysis::metrics::FormatDim3;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::FormatRawNumber;
using analysis::metrics::KernelProfile;
using analysis::metrics::MetricRow;
using analysis::metrics::Section;

namespace {

// The ten cells that identify the kernel, the same on every row of it.
std::vector<std::string> KernelCells(const KernelProfile& k) {
  return {std::to_string(k.profile_index),
          std::to_string(k.pid),
          k.demangled_name,
          std::to_string(k.invocation),
          std::to_string(k.context_id),
          std::to_string(k.stream_id),
          std::to_string(k.device_id),
          std::to_string(k.device.compute_major) + "." + std::to_string(k.device.compute_minor),
          // A range has no launch configuration.
          k.is_range ? std::string() : FormatDim3(k.grid),
          k.is_range ? std::string() : FormatDim3(k.block)};
}

void WriteMetricRow(std::ostream& out, std::vector<std::string> cells, std::string section,
                    std::string name, std::string unit, std::string value, std::string id) {
  cells.push_back(std::move(section));
  cells.push_back(std::move(name));
  cells.push_back(std::move(unit));
  cells.push_back(std::move(value));
  cells.push_back(std::move(id));
  WriteQuotedCsvRow(out, cells);
}

// Returns true when the kernel has metric rows to write.
bool WriteFailureRow(std::ostream& out, const KernelProfile& k) {
  if (k.measured) return true;
  WriteMetricRow(out, KernelCells(k), "error", "Not measured", "",
                 k.failure.empty() ? "no metric values were recorded" : k.failure, "");
  return false;
}

}  // namespace

const std::vector<std::string>& MetricsCsvColumns() {
  static const std::vector<std::string> columns = {
      "ID",           "Process ID",  "Kernel Name", "Invocation",   "Context",
      "Stream",       "Device",      "CC",          "Grid Size",    "Block Size",
      "Section Name", "Metric Name", "Metric Unit", "Metric Value", "Metric Id"};
  return columns;
}

void WriteDetailsCsv(std::ostream& out, const std::vector<KernelProfile>& kernels,
                     const std::vector<const Section*>& sections) {
  WriteQuotedCsvRow(out, MetricsCsvColumns());
  for (const KernelProfile& kernel : kernels) {
    if (!WriteFailureRow(out, kernel)) continue;
    const std::vector<std::string> cells = KernelCells(kernel);
    for (const MetricRow& row : EvaluateSections(kernel, sections)) {
      WriteMetricRow(
          out, cells, row.section, row.label, row.scaled.csv_unit,
          row.value ? FormatMetricNumber(row.scaled.value, /*group_thousands=*/false) : "n/a",
          row.metric_id);
    }
  }
}

void WriteRawCsv(std::ostream& out, const std::vector<KernelProfile>& kernels,
                 const std::map<std::string, std::string>& base_units) {
  WriteQuotedCsvRow(out, MetricsCsvColumns());
  for (const KernelProfile& kernel : kernels) {
    if (!WriteFailureRow(out, kernel)) continue;
    const std::vector<std::string> cells = KernelCells(kernel);
    for (const auto& [name, value] : kernel.metrics) {
      const auto unit = base_units.find(name);
      WriteMetricRow(out, cells, "raw", name,
                     unit == base_units.end() ? std::string() : unit->second,
                     FormatRawNumber(value), name);
    }
  }
}

}  // namespace gpuscope::render
