#include "render/stats_table_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "render/escaping.h"

namespace gpuscope::render {

using analysis::ColumnKind;
using analysis::StatsCell;
using analysis::StatsColumn;
using analysis::StatsTable;

namespace {

std::string Fixed(double value, int decimals) {
  // A NaN or infinity is not a JSON number; no statistic here can be one, but a corrupt
  // report must not produce unparsable output.
  if (!std::isfinite(value)) value = 0;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

// The plain form of a cell: what CSV and JSON carry (JSON quotes the text kind).
std::string PlainValue(const StatsCell& cell, ColumnKind kind) {
  if (cell.empty) return "";
  switch (kind) {
    case ColumnKind::kPercent:
    case ColumnKind::kDecimal1:
      return Fixed(cell.decimal, 1);
    case ColumnKind::kMegabytes:
      return Fixed(cell.decimal, 3);
    case ColumnKind::kInteger:
      return std::to_string(cell.integer);
    case ColumnKind::kSignedInteger:
      return std::to_string(cell.signed_integer);
    case ColumnKind::kText:
      break;
  }
  return cell.text;
}

std::string ColumnValue(const StatsCell& cell, ColumnKind kind) {
  if (kind == ColumnKind::kText || kind == ColumnKind::kPercent) return PlainValue(cell, kind);
  return WithThousandsSeparators(PlainValue(cell, kind));
}

void StripTrailingSpaces(std::string& line) { line.erase(line.find_last_not_of(' ') + 1); }

void WriteColumns(const StatsTable& table, std::ostream& out) {
  out << " ** " << table.title << " (" << table.name << "):\n\n";
  if (table.rows.empty()) {
    out << "SKIPPED: no " << table.subject << " in the report(s)\n\n";
    return;
  }
  std::size_t columns = table.columns.size();
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths(columns);
  for (std::size_t c = 0; c < columns; ++c) widths[c] = table.columns[c].header.size();
  for (const std::vector<StatsCell>& row : table.rows) {
    std::vector<std::string>& line = cells.emplace_back();
    for (std::size_t c = 0; c < columns; ++c) {
      // Names are the program's: control characters are shown, not sent to the terminal.
      line.push_back(table.columns[c].kind == ColumnKind::kText
                         ? TerminalText(ColumnValue(row[c], table.columns[c].kind))
                         : ColumnValue(row[c], table.columns[c].kind));
      widths[c] = std::max(widths[c], line.back().size());
    }
  }
  std::string header;
  std::string dashes;
  for (std::size_t c = 0; c < columns; ++c) {
    const std::string& name = table.columns[c].header;
    std::size_t pad = widths[c] - name.size();
    // nsys centres the header of a text column and right-aligns the others.
    std::size_t left = table.columns[c].kind == ColumnKind::kText ? pad / 2 : pad;
    header.append(c == 0 ? 1 : 2, ' ').append(left, ' ').append(name).append(pad - left, ' ');
    dashes.append(c == 0 ? 1 : 2, ' ').append(widths[c], '-');
  }
  StripTrailingSpaces(header);
  out << header << '\n' << dashes << '\n';
  for (const std::vector<std::string>& line : cells) {
    std::string text;
    for (std::size_t c = 0; c < columns; ++c) {
      std::size_t padding = widths[c] - line[c].size();
      text.append(c == 0 ? 1 : 2, ' ');
      if (table.columns[c].kind == ColumnKind::kText) {
        text.append(line[c]).append(padding, ' ');
      } else {
        text.append(padding, ' ').append(line[c]);
      }
    }
    StripTrailingSpaces(text);
    out << text << '\n';
  }
  out << '\n';
}

void WriteCsv(const StatsTable& table, std::ostream& out) {
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    out << (c == 0 ? "" : ",") << CsvField(table.columns[c].header);
  }
  out << '\n';
  for (const std::vector<StatsCell>& row : table.rows) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      out << (c == 0 ? "" : ",") << CsvField(PlainValue(row[c], table.columns[c].kind));
    }
    out << '\n';
  }
}

void WriteJson(const StatsTable& table, std::ostream& out) {
  if (table.rows.empty()) {
    out << "[]\n";
    return;
  }
  out << "[\n";
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    out << "  {";
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const StatsColumn& column = table.columns[c];
      std::string value = PlainValue(table.rows[r][c], column.kind);
      out << (c == 0 ? "" : ", ") << JsonString(column.header) << ": ";
      if (table.rows[r][c].empty) {
        out << "null";
      } else {
        out << (column.kind == ColumnKind::kText ? JsonString(value) : value);
      }
    }
    out << (r + 1 < table.rows.size() ? "},\n" : "}\n");
  }
  out << "]\n";
}

}  // namespace

StatusOr<StatsFormat> ParseStatsFormat(std::string_view text) {
  if (text == "column") return StatsFormat::kColumn;
  if (text == "csv") return StatsFormat::kCsv;
  if (text == "json") return StatsFormat::kJson;
  return Status::Error("unknown output format '" + std::string(text) +
                       "' (expected column, csv or json)");
}

std::string WithThousandsSeparators(const std::string& number) {
  std::size_t integer_end = number.find('.');
  if (integer_end == std::string::npos) integer_end = number.size();
  const std::size_t digits_begin = number.starts_with('-') ? 1 : 0;
  std::string out;
  for (std::size_t i = 0; i < integer_end; ++i) {
    if (i > digits_begin && (integer_end - i) % 3 == 0) out += ',';
    out += number[i];
  }
  out.append(number, integer_end, std::string::npos);
  return out;
}

void WriteStatsTable(const StatsTable& table, StatsFormat format, std::ostream& out) {
  switch (format) {
    case StatsFormat::kColumn:
      WriteColumns(table, out);
      return;
    case StatsFormat::kCsv:
      WriteCsv(table, out);
      return;
    case StatsFormat::kJson:
      WriteJson(table, out);
      return;
  }
}

}  // namespace gpuscope::render
