#include "render/kernel_summary.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "analysis/metrics/section_values.h"
#include "analysis/metrics/value_format.h"
#include "render/details_format.h"
#include "render/escaping.h"
#include "render/metric_table.h"

namespace gpuscope::render {

using analysis::metrics::EvaluateSections;
using analysis::metrics::FormatMetricNumber;
using analysis::metrics::KernelProfile;
using analysis::metrics::MetricRow;
using analysis::metrics::ScaledValue;
using analysis::metrics::ScaleValue;
using analysis::metrics::Section;
using analysis::metrics::SectionEntry;

namespace {

using GroupKey = std::tuple<std::uint32_t, std::string, std::array<std::int32_t, 3>,
                            std::array<std::int32_t, 3>>;

GroupKey KeyOf(const KernelProfile& k) { return {k.device_id, k.demangled_name, k.grid, k.block}; }

// One row of the summary: a catalog row's values over the group's launches.
struct Aggregate {
  std::string section;
  std::string table;
  std::string label;
  const SectionEntry* entry = nullptr;
  double min = 0, max = 0, sum = 0;
  int count = 0;
};

std::vector<Aggregate> AggregateRows(const std::vector<const KernelProfile*>& group,
                                     const std::vector<const Section*>& sections) {
  std::vector<Aggregate> rows;
  std::map<std::tuple<std::string, std::string, std::string>, std::size_t> index;
  for (const KernelProfile* kernel : group) {
    if (!kernel->measured) continue;
    for (const MetricRow& row : EvaluateSections(*kernel, sections)) {
      const auto key = std::make_tuple(row.section, row.table, row.label);
      auto [it, inserted] = index.emplace(key, rows.size());
      if (inserted) rows.push_back({row.section, row.table, row.label, row.entry});
      Aggregate& a = rows[it->second];
      if (!row.value) continue;
      const double v = *row.value;
      a.min = a.count == 0 ? v : std::min(a.min, v);
      a.max = a.count == 0 ? v : std::max(a.max, v);
      a.sum += v;
      ++a.count;
    }
  }
  return rows;
}

std::vector<std::string> Cells(const Aggregate& a, bool group_thousands) {
  if (a.count == 0 || a.entry == nullptr) {
    const std::string unit =
        a.entry ? ScaleValue(a.entry->unit_kind, a.entry->unit, 0).text_unit : std::string();
    return {a.label, unit, "n/a", "n/a", "n/a"};
  }
  const double average = a.sum / a.count;
  const ScaledValue scaled = ScaleValue(a.entry->unit_kind, a.entry->unit, average);
  const auto number = [&](double v) {
    return FormatMetricNumber(v / scaled.divisor, group_thousands);
  };
  return {a.label, scaled.text_unit, number(a.min), number(a.max), number(average)};
}

void PrintGroup(std::ostream& out, const std::vector<const KernelProfile*>& group,
                const std::vector<const Section*>& sections) {
  const KernelProfile& first = *group.front();
  out << KernelHeaderLine(first) << ", Invocations " << group.size() << '\n';
  const auto unmeasured = std::count_if(group.begin(), group.end(),
                                        [](const KernelProfile* k) { return !k->measured; });
  if (unmeasured > 0) {
    const auto failed = std::find_if(group.begin(), group.end(),
                                     [](const KernelProfile* k) { return !k->measured; });
    out << "    " << NotMeasuredLine(**failed) << " (" << unmeasured << " of " << group.size()
        << " invocations)\n";
  }
  if (unmeasured == static_cast<long>(group.size())) return;
  const std::vector<Aggregate> rows = AggregateRows(group, sections);
  const std::vector<std::string> headers = {"Metric Name", "Metric Unit", "Minimum", "Maximum",
                                            "Average"};
  for (const Section* section : sections) {
    out << "    Section: " << section->display_name << '\n';
    std::vector<std::string> tables = {""};
    for (const Aggregate& a : rows) {
      if (a.section == section->display_name &&
          std::find(tables.begin(), tables.end(), a.table) == tables.end()) {
        tables.push_back(a.table);
      }
    }
    for (const std::string& table : tables) {
      std::vector<std::vector<std::string>> cells;
      for (const Aggregate& a : rows) {
        if (a.section == section->display_name && a.table == table) {
          cells.push_back(Cells(a, /*group_thousands=*/true));
        }
      }
      if (!table.empty()) out << "    " << table << '\n';
      WriteMetricTable(out, headers, cells);
    }
  }
  out << '\n';
}

std::vector<std::vector<const KernelProfile*>> GroupsInFirstLaunchOrder(
    const std::vector<KernelProfile>& kernels) {
  std::vector<std::vector<const KernelProfile*>> groups;
  std::map<GroupKey, std::size_t> index;
  for (const KernelProfile& kernel : kernels) {
    auto [it, inserted] = index.emplace(KeyOf(kernel), groups.size());
    if (inserted) groups.emplace_back();
    groups[it->second].push_back(&kernel);
  }
  return groups;
}

}  // namespace

void PrintKernelSummary(std::ostream& out, const std::vector<KernelProfile>& kernels,
                        const std::vector<const Section*>& sections) {
  for (const auto& group : GroupsInFirstLaunchOrder(kernels)) PrintGroup(out, group, sections);
}

const std::vector<std::string>& KernelSummaryCsvColumns() {
  static const std::vector<std::string> columns = {
      "Kernel Name", "Context",      "Stream",      "Device",      "CC",
      "Grid Size",   "Block Size",   "Invocations", "Measured",    "Section Name",
      "Metric Name", "Metric Unit",  "Minimum",     "Maximum",     "Average"};
  return columns;
}

void WriteKernelSummaryCsv(std::ostream& out, const std::vector<KernelProfile>& kernels,
                           const std::vector<const Section*>& sections) {
  WriteQuotedCsvRow(out, KernelSummaryCsvColumns());
  for (const auto& group : GroupsInFirstLaunchOrder(kernels)) {
    const KernelProfile& first = *group.front();
    const auto measured = std::count_if(group.begin(), group.end(),
                                        [](const KernelProfile* k) { return k->measured; });
    const std::vector<std::string> kernel_cells = {
        first.demangled_name,
        std::to_string(first.context_id),
        std::to_string(first.stream_id),
        std::to_string(first.device_id),
        std::to_string(first.device.compute_major) + "." +
            std::to_string(first.device.compute_minor),
        first.is_range ? std::string() : analysis::metrics::FormatDim3(first.grid),
        first.is_range ? std::string() : analysis::metrics::FormatDim3(first.block),
        std::to_string(group.size()),
        std::to_string(measured)};
    if (measured == 0) {
      std::vector<std::string> cells = kernel_cells;
      const std::string reason =
          first.failure.empty() ? "no metric values were recorded" : first.failure;
      for (const char* cell : {"error", "Not measured"}) cells.push_back(cell);
      cells.push_back("");
      for (int i = 0; i < 3; ++i) cells.push_back(reason);
      WriteQuotedCsvRow(out, cells);
      continue;
    }
    const std::vector<Aggregate> rows = AggregateRows(group, sections);
    for (const Section* section : sections) {
      for (const Aggregate& a : rows) {
        if (a.section != section->display_name) continue;
        std::vector<std::string> cells = kernel_cells;
        cells.push_back(section->display_name);
        for (std::string& cell : Cells(a, /*group_thousands=*/false)) {
          cells.push_back(std::move(cell));
        }
        WriteQuotedCsvRow(out, cells);
      }
    }
  }
}

std::string FormatKernelSummary(const std::vector<KernelProfile>& kernels,
                                const std::vector<const Section*>& sections) {
  std::ostringstream out;
  PrintKernelSummary(out, kernels, sections);
  return out.str();
}

}  // namespace gpuscope::render
