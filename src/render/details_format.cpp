#include "render/details_format.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "analysis/rules/rule_registry.h"
#include "render/escaping.h"
#include "render/kernel_findings_format.h"
#include "render/metric_table.h"

namespace gpuscope::render {

using analysis::Finding;
using analysis::metrics::EvaluateSections;
using analysis::metrics::FormatDim3;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::KernelProfile;
using analysis::metrics::MetricRow;
using analysis::metrics::Section;
using analysis::rules::RunKernelRules;

namespace {

const std::vector<std::string> kHeaders = {"Metric Name", "Metric Unit", "Metric Value"};

std::string Gigahertz(const KernelProfile& kernel, const std::string& metric) {
  const auto it = kernel.metrics.find(metric);
  if (it == kernel.metrics.end()) return "n/a";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.2f GHz", it->second / 1e9);
  return buffer;
}

std::vector<std::string> Cells(const MetricRow& row) {
  return {row.label, row.scaled.text_unit,
          row.value ? FormatMetricNumber(row.scaled.value, /*group_thousands=*/true) : "n/a"};
}

// Rows arrive grouped by section and, inside a section, header rows first by catalog
// order; body tables are printed in the order their first row appears.
void PrintSection(std::ostream& out, const std::string& section, const std::vector<MetricRow>& rows,
                  const DetailsOptions& options) {
  out << "    Section: " << section << '\n';
  std::vector<std::vector<std::string>> header;
  std::vector<std::string> tables;
  for (const MetricRow& row : rows) {
    if (row.section != section) continue;
    if (row.table.empty()) {
      header.push_back(Cells(row));
    } else if (std::find(tables.begin(), tables.end(), row.table) == tables.end()) {
      tables.push_back(row.table);
    }
  }
  WriteMetricTable(out, kHeaders, header);
  if (!options.body_tables) return;
  for (const std::string& table : tables) {
    std::vector<std::vector<std::string>> body;
    for (const MetricRow& row : rows) {
      if (row.section == section && row.table == table) body.push_back(Cells(row));
    }
    out << "    " << table << '\n';
    WriteMetricTable(out, kHeaders, body);
  }
}

}  // namespace

std::string KernelHeaderLine(const KernelProfile& kernel) {
  // The name and the failure text come from the report: no raw escapes.
  if (kernel.is_range) {
    // A range has no launch configuration: ncu's "Range: name" with what it held.
    return "  Range: " + TerminalText(kernel.demangled_name) + " (" +
           std::to_string(kernel.range_kernels) +
           (kernel.range_kernels == 1 ? " kernel" : " kernels") + "), Context " +
           std::to_string(kernel.context_id) + ", Device " + std::to_string(kernel.device_id) +
           ", CC " + std::to_string(kernel.device.compute_major) + "." +
           std::to_string(kernel.device.compute_minor);
  }
  return "  " + TerminalText(kernel.demangled_name) + " " + FormatDim3(kernel.grid) + "x" +
         FormatDim3(kernel.block) + ", Context " + std::to_string(kernel.context_id) + ", Stream " +
         std::to_string(kernel.stream_id) + ", Device " + std::to_string(kernel.device_id) +
         ", CC " + std::to_string(kernel.device.compute_major) + "." +
         std::to_string(kernel.device.compute_minor);
}

std::string ClocksLine(const KernelProfile& kernel) {
  return "Clocks: not locked (SM " + Gigahertz(kernel, "gpc__cycles_elapsed.avg.per_second") +
         ", DRAM " + Gigahertz(kernel, "dram__cycles_elapsed.avg.per_second") + " measured)";
}

std::string NotMeasuredLine(const KernelProfile& kernel) {
  return "Not measured: " + (kernel.failure.empty() ? std::string("no metric values were recorded")
                                                    : TerminalText(kernel.failure));
}

void PrintDetailsPage(std::ostream& out, const std::vector<KernelProfile>& kernels,
                      const std::vector<const Section*>& sections, const DetailsOptions& options) {
  for (const KernelProfile& kernel : kernels) {
    out << KernelHeaderLine(kernel) << '\n';
    if (!kernel.measured) {
      out << "    " << NotMeasuredLine(kernel) << '\n';
      continue;
    }
    out << "    " << ClocksLine(kernel) << '\n';
    const std::vector<MetricRow> rows = EvaluateSections(kernel, sections);
    const analysis::source::KernelSource* source = nullptr;
    if (options.sources != nullptr) {
      if (auto found = options.sources->find(kernel.id); found != options.sources->end()) {
        source = &found->second;
      }
    }
    const std::vector<Finding> findings =
        options.findings ? RunKernelRules(kernel, source) : std::vector<Finding>();
    for (const Section* section : sections) {
      PrintSection(out, section->display_name, rows, options);
      out << FormatFindings(findings, section->identifier);
    }
    out << '\n';
  }
}

std::string FormatDetailsPage(const std::vector<KernelProfile>& kernels,
                              const std::vector<const Section*>& sections,
                              const DetailsOptions& options) {
  std::ostringstream out;
  PrintDetailsPage(out, kernels, sections, options);
  return out.str();
}

void PrintRawPage(std::ostream& out, const std::vector<KernelProfile>& kernels,
                  const std::map<std::string, std::string>& base_units) {
  for (const KernelProfile& kernel : kernels) {
    out << KernelHeaderLine(kernel) << '\n';
    if (!kernel.measured) {
      out << "    " << NotMeasuredLine(kernel) << '\n';
      continue;
    }
    std::vector<std::vector<std::string>> rows;
    for (const auto& [name, value] : kernel.metrics) {
      const auto unit = base_units.find(name);
      rows.push_back({TerminalText(name),
                      unit == base_units.end() ? std::string() : TerminalText(unit->second),
                      FormatMetricNumber(value, /*group_thousands=*/true)});
    }
    WriteMetricTable(out, kHeaders, rows);
    out << '\n';
  }
}

}  // namespace gpuscope::render
