#include "analysis/diff/source_line_diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "analysis/source/source_summary.h"

namespace gpuscope::analysis::diff {
namespace {

// The column indices of kLineDiffColumns in the source page.
std::array<std::size_t, kLineDiffColumns.size()> ColumnIndices() {
  std::array<std::size_t, kLineDiffColumns.size()> indices{};
  for (std::size_t i = 0; i < kLineDiffColumns.size(); ++i) {
    indices[i] = source::FindSourceColumn(kLineDiffColumns[i]).value();
  }
  return indices;
}

// One side of a joined row: its values and code.
struct Side {
  const source::ColumnValues* values = nullptr;
  std::optional<std::string> text;
};

struct Joined {
  std::string location;
  std::string function;
  Side before, after;
};

// Rows joined by (file base name, line); the line-less group by itself.
std::map<std::pair<std::string, std::uint32_t>, Joined> JoinLines(
    const source::KernelSource& before, const source::KernelSource& after) {
  std::map<std::pair<std::string, std::uint32_t>, Joined> rows;
  auto add = [&rows](const source::KernelSource& kernel, bool is_before) {
    for (const source::LineRow& line : kernel.lines) {
      const bool has_line = line.file && line.line;
      // The group without a line sorts after every file ("\x7f").
      std::pair<std::string, std::uint32_t> key =
          has_line ? std::pair(source::FileBaseName(*line.file), *line.line)
                   : std::pair(std::string("\x7f"), 0u);
      Joined& row = rows[key];
      row.location = has_line ? key.first + ":" + std::to_string(key.second)
                              : std::string("(no line information)");
      (is_before ? row.before : row.after) = Side{&line.values, line.text};
    }
  };
  add(before, true);
  add(after, false);
  return rows;
}

// Instructions joined by (function, offset).
std::map<std::pair<std::string, std::uint64_t>, Joined> JoinInstructions(
    const source::KernelSource& before, const source::KernelSource& after) {
  std::map<std::pair<std::string, std::uint64_t>, Joined> rows;
  auto add = [&rows](const source::KernelSource& kernel, bool is_before) {
    for (const source::InstructionRow& instruction : kernel.instructions) {
      Joined& row = rows[{instruction.function, instruction.pc_offset}];
      row.location = source::HexOffset(instruction.pc_offset);
      row.function = instruction.function;
      (is_before ? row.before : row.after) = Side{&instruction.values, instruction.sass};
    }
  };
  add(before, true);
  add(after, false);
  return rows;
}

std::optional<std::uint64_t> ValueAt(const Side& side, std::size_t column) {
  if (side.values == nullptr || column >= side.values->size()) return std::nullopt;
  return (*side.values)[column];
}

}  // namespace

SourceLineDiff DiffSourceLines(const source::KernelSource& before,
                               const source::KernelSource& after) {
  static const std::array<std::size_t, kLineDiffColumns.size()> columns = ColumnIndices();
  SourceLineDiff diff;
  diff.by_line = before.has_lines && after.has_lines;
  const source::ColumnValues totals_before = source::KernelTotals(before);
  const source::ColumnValues totals_after = source::KernelTotals(after);
  std::array<double, kLineDiffColumns.size()> scale{};
  for (std::size_t c = 0; c < columns.size(); ++c) {
    diff.measured[c] =
        totals_before[columns[c]].has_value() && totals_after[columns[c]].has_value();
    scale[c] = static_cast<double>(
        std::max(totals_before[columns[c]].value_or(0), totals_after[columns[c]].value_or(0)));
  }
  auto compare = [&](const Joined& row) {
    ++diff.compared;
    SourceLineDelta line;
    line.location = row.location;
    line.function = row.function;
    line.text = row.after.values != nullptr ? row.after.text : row.before.text;
    line.only_before = row.after.values == nullptr;
    line.only_after = row.before.values == nullptr;
    bool changed = false;
    for (std::size_t c = 0; c < columns.size(); ++c) {
      line.values[c] = {ValueAt(row.before, columns[c]), ValueAt(row.after, columns[c])};
      if (!diff.measured[c]) continue;
      const double delta = line.values[c].Delta();
      if (delta == 0) continue;
      changed = true;
      line.weight = std::max(line.weight, scale[c] > 0 ? std::fabs(delta) / scale[c] : 0.0);
    }
    if (changed) diff.changed.push_back(std::move(line));
  };
  if (diff.by_line) {
    for (const auto& [key, row] : JoinLines(before, after)) compare(row);
  } else {
    for (const auto& [key, row] : JoinInstructions(before, after)) compare(row);
  }
  std::stable_sort(
      diff.changed.begin(), diff.changed.end(),
      [](const SourceLineDelta& a, const SourceLineDelta& b) { return a.weight > b.weight; });
  return diff;
}

}  // namespace gpuscope::analysis::diff
