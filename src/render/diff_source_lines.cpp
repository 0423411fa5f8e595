#include "render/diff_source_lines.h"

#include <cstdio>
#include <sstream>
#include <vector>

#include "analysis/metrics/value_format.h"
#include "render/escaping.h"
#include "render/metric_table.h"

namespace gpuscope::render {
namespace {

using analysis::diff::kLineDiffColumns;
using analysis::diff::LineValueDelta;
using analysis::diff::SourceLineDelta;
using analysis::diff::SourceLineDiff;

// Short headers for the text table (JSON carries ncu's).
constexpr const char* kShortHeaders[] = {"Instructions", "Excess Sectors", "Excess Wavefronts",
                                         "Stall Samples"};
static_assert(std::size(kShortHeaders) == kLineDiffColumns.size());

// Code wider than this is cut with "...": the table stays readable next to the numbers.
constexpr std::size_t kCodeWidth = 60;

// "1,024": ncu's thousands separators.
std::string Grouped(std::uint64_t value) {
  return analysis::metrics::FormatMetricNumber(static_cast<double>(value),
                                               /*group_thousands=*/true);
}

// "+1,024 (+12.5%)", "-96 (gone)", "+5 (new)", "" when unchanged.
std::string ChangeText(const LineValueDelta& value) {
  const double delta = value.Delta();
  if (delta == 0) return "";
  const std::uint64_t before = value.before.value_or(0), after = value.after.value_or(0);
  std::string text = (delta > 0 ? "+" : "-") + Grouped(delta > 0 ? after - before : before - after);
  if (before == 0) return text + " (new)";
  if (after == 0) return text + " (gone)";
  char relative[32];
  std::snprintf(relative, sizeof relative, " (%+.1f%%)",
                100.0 * delta / static_cast<double>(before));
  return text + relative;
}

std::string CodeText(const SourceLineDelta& line) {
  std::string code = line.text ? TerminalText(*line.text) : std::string();
  const std::size_t start = code.find_first_not_of(" \t");
  code = start == std::string::npos ? std::string() : code.substr(start);
  if (code.size() > kCodeWidth) code = code.substr(0, kCodeWidth - 3) + "...";
  if (line.only_before) code = "(only before) " + code;
  if (line.only_after) code = "(only after) " + code;
  return code;
}

std::string OptionalCount(const std::optional<std::uint64_t>& value) {
  return value ? std::to_string(*value) : "null";
}

}  // namespace

void WriteSourceLineDiffText(const SourceLineDiff& diff, bool all_rows, std::ostream& out) {
  out << "    Source lines (joined by "
      << (diff.by_line ? "file:line" : "SASS offset: no line information") << "): ";
  if (diff.changed.empty()) {
    out << "no change in " << diff.compared << (diff.by_line ? " lines" : " instructions") << "\n";
    return;
  }
  const std::size_t shown =
      all_rows ? diff.changed.size() : std::min(diff.changed.size(), kTopChangedLines);
  out << diff.changed.size() << " of " << diff.compared << " changed, biggest change first\n";
  std::vector<std::string> headers = {diff.by_line ? "Line" : "Address"};
  for (std::size_t c = 0; c < kLineDiffColumns.size(); ++c) {
    if (diff.measured[c]) headers.emplace_back(kShortHeaders[c]);
  }
  headers.emplace_back(diff.by_line ? "Source" : "SASS");
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < shown; ++i) {
    const SourceLineDelta& line = diff.changed[i];
    std::vector<std::string> row = {TerminalText(line.location)};
    for (std::size_t c = 0; c < kLineDiffColumns.size(); ++c) {
      if (diff.measured[c]) row.push_back(ChangeText(line.values[c]));
    }
    row.push_back(CodeText(line));
    rows.push_back(std::move(row));
  }
  std::ostringstream table;
  WriteMetricTable(table, headers, rows, /*left_aligned=*/1, /*left_aligned_tail=*/1);
  // Indented under the kernel's metric table.
  std::istringstream lines(table.str());
  for (std::string text; std::getline(lines, text);) out << "  " << text << '\n';
  if (shown < diff.changed.size()) {
    out << "      (" << diff.changed.size() - shown << " more changed; --all lists them)\n";
  }
}

std::string SourceLineDiffJson(const SourceLineDiff& diff) {
  std::string columns;
  for (std::size_t c = 0; c < kLineDiffColumns.size(); ++c) {
    if (!diff.measured[c]) continue;
    columns += (columns.empty() ? "" : ",") + JsonString(kLineDiffColumns[c]);
  }
  std::string changed;
  for (const SourceLineDelta& line : diff.changed) {
    std::string values;
    for (std::size_t c = 0; c < kLineDiffColumns.size(); ++c) {
      if (!diff.measured[c]) continue;
      const LineValueDelta& value = line.values[c];
      values += (values.empty() ? "" : ",");
      values += "{\"column\":" + JsonString(kLineDiffColumns[c]) +
                ",\"before\":" + OptionalCount(value.before) +
                ",\"after\":" + OptionalCount(value.after) +
                ",\"delta\":" + JsonNumber(value.Delta()) + "}";
    }
    changed += (changed.empty() ? "" : ",");
    changed += "{\"location\":" + JsonString(line.location) +
               ",\"function\":" + JsonString(line.function) +
               ",\"code\":" + (line.text ? JsonString(*line.text) : std::string("null")) +
               ",\"only_before\":" + (line.only_before ? "true" : "false") +
               ",\"only_after\":" + (line.only_after ? "true" : "false") + ",\"values\":[" +
               values + "]}";
  }
  return std::string("{\"joined_by\":\"") + (diff.by_line ? "line" : "offset") +
         "\",\"compared\":" + std::to_string(diff.compared) + ",\"columns\":[" + columns +
         "],\"changed\":[" + changed + "]}";
}

}  // namespace gpuscope::render
