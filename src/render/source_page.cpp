#include "render/source_page.h"

#include <algorithm>

#include "analysis/source/source_summary.h"
#include "render/escaping.h"

namespace gpuscope::render {
namespace {

namespace src = analysis::source;

std::string Number(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : std::string();
}

// The rows to print, in order: (line index or none, instruction index or none).
struct PageRow {
  const src::LineRow* line = nullptr;
  const src::InstructionRow* instruction = nullptr;
};

std::vector<PageRow> PageRows(const src::KernelSource& kernel, const SourcePageOptions& options) {
  std::vector<PageRow> rows;
  if (options.print == SourcePrint::kSass) {
    std::vector<const src::InstructionRow*> order;
    for (const src::InstructionRow& row : kernel.instructions) order.push_back(&row);
    if (options.sort_column) {
      const std::size_t c = *options.sort_column;
      std::stable_sort(order.begin(), order.end(), [c](auto* a, auto* b) {
        if (a->values[c].has_value() != b->values[c].has_value()) return a->values[c].has_value();
        return a->values[c] && *a->values[c] > *b->values[c];
      });
    }
    for (const src::InstructionRow* row : order) rows.push_back({nullptr, row});
    return rows;
  }
  std::vector<const src::LineRow*> lines;
  for (const src::LineRow& line : kernel.lines) lines.push_back(&line);
  if (options.sort_column) {
    const std::size_t c = *options.sort_column;
    std::stable_sort(lines.begin(), lines.end(), [c](auto* a, auto* b) {
      if (a->values[c].has_value() != b->values[c].has_value()) return a->values[c].has_value();
      return a->values[c] && *a->values[c] > *b->values[c];
    });
  }
  for (const src::LineRow* line : lines) {
    rows.push_back({line, nullptr});
    if (options.print != SourcePrint::kCudaSass) continue;
    for (std::size_t index : line->instructions) {
      rows.push_back({nullptr, &kernel.instructions[index]});
    }
  }
  return rows;
}

std::string LineText(const src::LineRow& line) {
  if (!line.line) return "(no line information)";
  return line.text.value_or("");
}

}  // namespace

void WriteSourcePageCsvHeader(std::ostream& out) {
  std::vector<std::string> cells = {"ID",     "Kernel Name", "Function", "Address",
                                    "Source", "File",        "Line"};
  for (const src::SourceColumn& column : src::SourceColumns()) {
    cells.emplace_back(column.header);
  }
  WriteQuotedCsvRow(out, cells);
}

void WriteSourcePageCsv(const SourcePageKernel& kernel, const SourcePageOptions& options,
                        std::ostream& out) {
  if (kernel.source == nullptr) return;
  const std::string id = std::to_string(kernel.profile_index);
  for (const PageRow& row : PageRows(*kernel.source, options)) {
    std::vector<std::string> cells = {id, kernel.name};
    const src::ColumnValues* values;
    if (row.instruction != nullptr) {
      const src::InstructionRow& i = *row.instruction;
      cells.push_back(i.function);
      cells.push_back(src::HexOffset(i.pc_offset));
      cells.push_back(i.sass.value_or(""));
      cells.push_back(i.file.value_or(""));
      cells.push_back(i.line ? std::to_string(*i.line) : "");
      values = &i.values;
    } else {
      const src::LineRow& l = *row.line;
      // A line can hold instructions of several functions (inlined code); name the first's.
      cells.push_back(
          l.instructions.empty() ? "" : kernel.source->instructions[l.instructions[0]].function);
      cells.emplace_back();
      cells.push_back(l.line ? l.text.value_or("") : "");
      cells.push_back(l.file.value_or(""));
      cells.push_back(l.line ? std::to_string(*l.line) : "");
      values = &l.values;
    }
    for (std::size_t c = 0; c < src::SourceColumns().size(); ++c) {
      cells.push_back(c < values->size() ? Number((*values)[c]) : "");
    }
    WriteQuotedCsvRow(out, cells);
  }
}

void WriteSourcePageText(const SourcePageKernel& kernel, const SourcePageOptions& options,
                         std::ostream& out) {
  out << "  " << TerminalText(kernel.name) << " (ID " << kernel.profile_index << ")\n";
  if (kernel.source == nullptr || kernel.source->instructions.empty()) {
    out << "    No source data: " << TerminalText(kernel.no_data_reason) << "\n\n";
    return;
  }
  const src::KernelSource& source = *kernel.source;
  if (!source.message.empty()) out << "    Note: " << TerminalText(source.message) << '\n';
  const std::vector<PageRow> rows = PageRows(source, options);
  // Only the columns this kernel has values in: the page stays readable at 80 columns wider
  // than the code; --csv has them all.
  const std::vector<std::size_t> shown = src::ColumnsWithValues(source);
  const char* where = options.print == SourcePrint::kSass   ? "Address"
                      : options.print == SourcePrint::kCuda ? "Line"
                                                            : "Line/Address";
  std::vector<std::string> header = {where, "Source"};
  for (std::size_t c : shown) header.emplace_back(src::SourceColumns()[c].header);
  std::vector<std::vector<std::string>> table = {header};
  for (const PageRow& row : rows) {
    std::vector<std::string> cells;
    const src::ColumnValues* values;
    if (row.instruction != nullptr) {
      const src::InstructionRow& i = *row.instruction;
      cells.push_back(src::HexOffset(i.pc_offset));
      std::string text = i.sass.value_or("(no SASS text)");
      if (options.print == SourcePrint::kCudaSass) text = "    " + text;
      cells.push_back(TerminalText(text));
      values = &i.values;
    } else {
      cells.push_back(row.line->line ? std::to_string(*row.line->line) : "-");
      cells.push_back(TerminalText(LineText(*row.line)));
      values = &row.line->values;
    }
    for (std::size_t c : shown) cells.push_back(Number((*values)[c]));
    table.push_back(std::move(cells));
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& cells : table) {
    for (std::size_t c = 0; c < cells.size(); ++c) widths[c] = std::max(widths[c], cells[c].size());
  }
  for (const auto& cells : table) {
    out << "    ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::size_t pad = widths[c] - cells[c].size();
      if (c < 2) {  // the address or line and the text read left to right
        out << cells[c] << (c + 1 < cells.size() ? std::string(pad + 2, ' ') : "");
      } else {
        out << std::string(pad, ' ') << cells[c] << (c + 1 < cells.size() ? "  " : "");
      }
    }
    out << '\n';
  }
  out << '\n';
}

}  // namespace gpuscope::render
