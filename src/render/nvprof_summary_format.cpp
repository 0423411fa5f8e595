#include "render/nvprof_summary_format.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>
#include <vector>

#include "util/units.h"
#include "render/escaping.h"

namespace gpuscope::render {

using analysis::NvprofSummary;
using analysis::SummaryRow;

namespace {

struct SummarySection {
  const char* label;  // "GPU activities" / "API calls"
  const std::vector<SummaryRow>* rows;
};

std::vector<SummarySection> RequestedSections(const NvprofSummary& summary,
                                              const OutputOptions& options) {
  std::vector<SummarySection> sections;
  if (options.gpu_activities) sections.push_back({"GPU activities", &summary.gpu_activities});
  if (options.api_calls) sections.push_back({"API calls", &summary.api_calls});
  return sections;
}

double SectionTotal(const std::vector<SummaryRow>& rows) {
  double total = 0;
  for (const SummaryRow& row : rows) total += static_cast<double>(row.time.total);
  return total;
}

double Percent(const SummaryRow& row, double section_total) {
  return section_total > 0 ? 100.0 * static_cast<double>(row.time.total) / section_total : 0;
}

std::string FormatPercent(double percent, const char* format) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, format, percent);
  return buffer;
}

std::string_view EmptyMessage(const OutputOptions& options) {
  if (options.gpu_activities && options.api_calls) {
    return "No kernels, memory copies, memsets or API calls were profiled.";
  }
  if (options.gpu_activities) return "No kernels, memory copies or memsets were profiled.";
  return "No API calls were profiled.";
}

// Cells of one table line after the Type column: Time(%), Time, Calls, Avg, Min, Max.
using NumberCells = std::array<std::string, 6>;

NumberCells TextCells(const SummaryRow& row, double section_total, TimeUnit unit) {
  return {FormatPercent(Percent(row, section_total), "%.2f%%"),
          FormatTime(static_cast<double>(row.time.total), unit),
          std::to_string(row.time.count),
          FormatTime(row.time.mean(), unit),
          FormatTime(static_cast<double>(row.time.min), unit),
          FormatTime(static_cast<double>(row.time.max), unit)};
}

void WriteText(const std::vector<SummarySection>& sections, TimeUnit unit, std::ostream& out) {
  // nvprof's widths; a column widens (keeping two spaces of separation) only when a cell
  // does not fit, which happens with a fixed unit or huge call counts.
  constexpr int kTypeWidth = 16;
  static const std::array<std::string, 6> kHeaders = {"Time(%)", "Time", "Calls",
                                                      "Avg",     "Min",  "Max"};
  std::array<std::size_t, 6> widths = {9, 10, 10, 10, 10, 10};
  std::vector<std::vector<NumberCells>> cells(sections.size());
  for (std::size_t s = 0; s < sections.size(); ++s) {
    double total = SectionTotal(*sections[s].rows);
    for (const SummaryRow& row : *sections[s].rows) {
      cells[s].push_back(TextCells(row, total, unit));
      for (std::size_t c = 0; c < widths.size(); ++c) {
        widths[c] = std::max(widths[c], cells[s].back()[c].size() + 2);
      }
    }
  }
  auto write_line = [&](std::string_view type, const NumberCells& numbers, std::string_view name) {
    out << std::string(kTypeWidth - std::min<std::size_t>(type.size(), kTypeWidth), ' ') << type;
    for (std::size_t c = 0; c < numbers.size(); ++c) {
      out << std::string(widths[c] - std::min(widths[c], numbers[c].size()), ' ') << numbers[c];
    }
    out << "  " << TerminalText(name) << '\n';  // names are the program's: no raw escapes
  };
  write_line("Type", kHeaders, "Name");
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const std::vector<SummaryRow>& rows = *sections[s].rows;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::string type = r == 0 ? std::string(sections[s].label) + ":" : "";
      write_line(type, cells[s][r], rows[r].name);
    }
  }
}

void WriteCsv(const std::vector<SummarySection>& sections, TimeUnit requested, std::ostream& out) {
  TimeUnit unit = CsvTimeUnit(requested);
  std::string suffix(TimeUnitSuffix(unit));
  out << "\"Type\",\"Time(%)\",\"Time\",\"Calls\",\"Avg\",\"Min\",\"Max\",\"Name\"\n";
  out << ",%," << suffix << ",," << suffix << ',' << suffix << ',' << suffix << ",\n";
  for (const SummarySection& section : sections) {
    double total = SectionTotal(*section.rows);
    for (const SummaryRow& row : *section.rows) {
      out << CsvQuoted(section.label) << ',' << FormatPercent(Percent(row, total), "%f") << ','
          << FormatCsvTime(static_cast<double>(row.time.total), unit) << ',' << row.time.count
          << ',' << FormatCsvTime(row.time.mean(), unit) << ','
          << FormatCsvTime(static_cast<double>(row.time.min), unit) << ','
          << FormatCsvTime(static_cast<double>(row.time.max), unit) << ',' << CsvQuoted(row.name)
          << '\n';
    }
  }
}

}  // namespace

void FormatNvprofSummary(const NvprofSummary& summary, const OutputOptions& options,
                         std::ostream& out) {
  std::vector<SummarySection> sections = RequestedSections(summary, options);
  std::erase_if(sections, [](const SummarySection& section) { return section.rows->empty(); });
  // A section the report did not trace (--trace) says so, rather than looking empty.
  if (!options.csv) {
    if (options.gpu_activities && !summary.gpu_activities_traced) {
      out << "GPU activities: not traced (--trace without cuda or cuda-gpu)\n";
    }
    if (options.api_calls && !summary.api_calls_traced) {
      out << "API calls: not traced (--trace without cuda)\n";
    }
    if ((!options.gpu_activities || !summary.gpu_activities_traced) &&
        (!options.api_calls || !summary.api_calls_traced)) {
      return;
    }
  }
  if (options.csv) {
    // A CSV consumer gets its header even when there is nothing to list.
    WriteCsv(sections, options.unit, out);
    return;
  }
  if (sections.empty()) {
    out << EmptyMessage(options) << '\n';
    return;
  }
  WriteText(sections, options.unit, out);
}

}  // namespace gpuscope::render
