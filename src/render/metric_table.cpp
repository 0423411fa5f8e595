#include "render/metric_table.h"

#include <algorithm>

namespace gpuscope::render {
namespace {

constexpr const char* kRowIndent = "    ";

void WriteLine(std::ostream& out, const std::vector<std::string>& cells,
               const std::vector<std::size_t>& widths, std::size_t left_aligned,
               std::size_t left_aligned_tail) {
  std::string line = kRowIndent;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) line += ' ';
    const std::string padding(widths[i] - cells[i].size(), ' ');
    const bool left = i < left_aligned || i + left_aligned_tail >= cells.size();
    line += left ? cells[i] + padding : padding + cells[i];
  }
  // Left-aligned padding would leave blanks at the end of the line.
  line.erase(line.find_last_not_of(' ') + 1);
  out << line << '\n';
}

}  // namespace

void WriteMetricTable(std::ostream& out, const std::vector<std::string>& headers,
                      const std::vector<std::vector<std::string>>& rows, std::size_t left_aligned,
                      std::size_t left_aligned_tail) {
  if (rows.empty()) return;
  std::vector<std::size_t> widths(headers.size());
  for (std::size_t i = 0; i < headers.size(); ++i) widths[i] = headers[i].size();
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size() && i < widths.size(); ++i) {
      widths[i] = std::max(widths[i], row[i].size());
    }
  }
  std::vector<std::string> rule;
  for (std::size_t width : widths) rule.emplace_back(width, '-');
  WriteLine(out, rule, widths, left_aligned, left_aligned_tail);
  WriteLine(out, headers, widths, left_aligned, left_aligned_tail);
  WriteLine(out, rule, widths, left_aligned, left_aligned_tail);
  for (const auto& row : rows) WriteLine(out, row, widths, left_aligned, left_aligned_tail);
}

}  // namespace gpuscope::render
