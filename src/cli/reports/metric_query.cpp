#include "cli/reports/metric_query.h"

#include <algorithm>
#include <memory>

#include "cupti/host/metric_host.h"
#include "render/escaping.h"

namespace gpuscope::cli {
namespace {

std::string Capitalised(std::string_view text) {
  std::string out(text);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

}  // namespace

Status PrintMetricQuery(std::ostream& out, const std::string& chip, bool csv) {
  StatusOr<std::unique_ptr<cupti::host::MetricHost>> host = cupti::host::MetricHost::Open(chip);
  if (!host.ok()) return host.status();
  const std::vector<cupti::host::MetricDescription>& metrics = (*host)->BaseMetrics();
  if (csv) {
    out << "\"Metric Name\",\"Metric Type\",\"Metric Unit\",\"Metric Description\"\n";
    for (const cupti::host::MetricDescription& m : metrics) {
      out << render::CsvQuoted(m.name) << ','
          << render::CsvQuoted(Capitalised(cupti::host::MetricKindName(m.kind))) << ','
          << render::CsvQuoted(m.unit) << ',' << render::CsvQuoted(m.description) << '\n';
    }
    return Status();
  }
  std::size_t name_width = 11;
  std::size_t unit_width = 11;
  for (const cupti::host::MetricDescription& m : metrics) {
    name_width = std::max(name_width, m.name.size());
    unit_width = std::max(unit_width, m.unit.size());
  }
  auto pad = [](const std::string& text, std::size_t width) {
    return text + std::string(width > text.size() ? width - text.size() : 0, ' ');
  };
  out << "Device " << (*host)->chip() << "\n";
  out << pad("Metric Name", name_width) << "  " << pad("Metric Type", 11) << "  "
      << pad("Metric Unit", unit_width) << "  Metric Description\n";
  out << std::string(name_width, '-') << "  " << std::string(11, '-') << "  "
      << std::string(unit_width, '-') << "  " << std::string(18, '-') << "\n";
  for (const cupti::host::MetricDescription& m : metrics) {
    out << pad(m.name, name_width) << "  "
        << pad(Capitalised(cupti::host::MetricKindName(m.kind)), 11) << "  "
        << pad(m.unit, unit_width) << "  " << m.description << "\n";
  }
  out << "\nEach base metric is collected with a suffix: counters .sum .avg .min .max "
         "(and .per_second, .per_cycle_elapsed, .pct_of_peak_sustained_elapsed, ...), ratios "
         ".ratio .pct .max_rate, throughputs .avg.pct_of_peak_sustained_elapsed ... \n"
         "`gpuscope profile --metrics <name>` checks a full name on the GPU's chip before the "
         "program "
         "starts and suggests the nearest names for a typo.\n";
  return Status();
}

}  // namespace gpuscope::cli
