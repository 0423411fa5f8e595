#include "source_csv.h"

#include <algorithm>
#include <charconv>

#include "csv_line.h"
#include "metric_value.h"
#include "profiled_launch.h"
#include "util/trim.h"

namespace gpuscope::ncu_csv {
namespace {

// The records of `text`: its quoted lines split into fields, with their line numbers for
// error messages. Other lines (progress, the program's output) are left out.
struct Record {
  int line_number;
  std::vector<std::string> fields;
};
StatusOr<std::vector<Record>> QuotedRecords(std::string_view text) {
  std::vector<Record> records;
  int line_number = 0;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++line_number;
    if (!LooksLikeQuotedRecord(line)) continue;
    auto fields = SplitCsvLine(line);
    if (!fields) return Status::Error("line " + std::to_string(line_number) + ": not CSV");
    records.push_back({line_number, std::move(*fields)});
  }
  return records;
}

std::optional<std::uint64_t> ParseHex(std::string_view text) {
  text = TrimWhitespace(text);
  if (text.size() < 3 || text[0] != '0' || (text[1] != 'x' && text[1] != 'X')) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data() + 2, text.data() + text.size(), value, 16);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// "" and "-" have no value. gpuscope's columns are all counts, so anything else must be a
// number (`strict`); ncu also prints words ("Global", "Load" under "Address Space" and
// "Access Operation"), which have no number.
StatusOr<std::optional<double>> ParseCell(std::string_view text, bool strict) {
  std::string_view trimmed = TrimWhitespace(text);
  if (trimmed.empty() || trimmed == "-") return std::optional<double>();
  std::optional<double> number = ParseMetricNumber(trimmed);
  if (!number && strict) {
    std::string message(text);  // appended, not `"'" + ...`: GCC 12 warns (-Wrestrict) there
    message.append(" is not a number");
    return Status::Error(message);
  }
  return number;
}

Status Located(const Record& record, const std::string& message) {
  return Status::Error("line " + std::to_string(record.line_number) + ": " + message);
}

// Fills row.values from fields[first_value...] under `columns`.
Status ReadValues(const Record& record, size_t first_value, const std::vector<std::string>& columns,
                  bool strict, SourceRow& row) {
  if (record.fields.size() < first_value + columns.size()) {
    return Located(record, "has " + std::to_string(record.fields.size()) + " fields, the header " +
                               std::to_string(first_value + columns.size()));
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    auto value = ParseCell(record.fields[first_value + i], strict);
    if (!value.ok()) return Located(record, columns[i] + ": " + value.status().message());
    row.values[columns[i]] = *value;
  }
  return Status();
}

}  // namespace

std::optional<double> SourceRow::Value(const std::string& column) const {
  auto found = values.find(column);
  return found == values.end() ? std::nullopt : found->second;
}

StatusOr<std::vector<SourceFunction>> ParseNcuSourcePage(std::string_view text) {
  auto records = QuotedRecords(text);
  if (!records.ok()) return records.status();
  std::vector<SourceFunction> functions;
  bool have_header = false;
  std::uint64_t first_address = 0;  // of the current function; 0 before its first row
  for (const Record& record : *records) {
    const std::vector<std::string>& fields = record.fields;
    if (fields.size() >= 2 && fields[0] == "Kernel Name") {
      SourceFunction function;
      function.id = static_cast<long>(functions.size());
      function.kernel_name = fields[1];
      function.function_name = KernelFunctionName(fields[1]);
      functions.push_back(std::move(function));
      have_header = false;
      first_address = 0;
      continue;
    }
    if (functions.empty()) return Located(record, "a record before any \"Kernel Name\"");
    SourceFunction& function = functions.back();
    if (fields.size() >= 2 && fields[0] == "Address" && fields[1] == "Source") {
      function.columns.assign(fields.begin() + 2, fields.end());
      have_header = true;
      continue;
    }
    if (!have_header) return Located(record, "an instruction before the \"Address\" header");
    SourceRow row;
    row.address = fields[0];
    std::optional<std::uint64_t> address = ParseHex(fields[0]);
    if (!address) return Located(record, "'" + fields[0] + "' is not an address");
    if (function.rows.empty()) first_address = *address;
    if (*address < first_address) return Located(record, "addresses must grow");
    row.offset = *address - first_address;
    row.source = std::string(TrimWhitespace(fields.size() > 1 ? fields[1] : ""));
    Status read = ReadValues(record, 2, function.columns, /*strict=*/false, row);
    if (!read.ok()) return read;
    function.rows.push_back(std::move(row));
  }
  return functions;
}

StatusOr<std::vector<SourceFunction>> ParseGpuscopeSourceCsv(std::string_view text) {
  auto records = QuotedRecords(text);
  if (!records.ok()) return records.status();
  static const std::vector<std::string> kIdentity = {"ID",     "Kernel Name", "Function", "Address",
                                                     "Source", "File",        "Line"};
  if (records->empty()) return Status::Error("no CSV table");
  const Record& header = records->front();
  if (header.fields.size() < kIdentity.size() ||
      !std::equal(kIdentity.begin(), kIdentity.end(), header.fields.begin())) {
    return Located(header,
                   "the header must start with \"ID\",\"Kernel Name\",\"Function\","
                   "\"Address\",\"Source\",\"File\",\"Line\"");
  }
  const std::vector<std::string> columns(header.fields.begin() + kIdentity.size(),
                                         header.fields.end());
  std::vector<SourceFunction> functions;
  for (size_t r = 1; r < records->size(); ++r) {
    const Record& record = (*records)[r];
    const std::vector<std::string>& fields = record.fields;
    if (fields.size() != header.fields.size()) {
      return Located(record, "has " + std::to_string(fields.size()) + " fields, the header " +
                                 std::to_string(header.fields.size()));
    }
    auto id = ParseMetricNumber(fields[0]);
    if (!id) return Located(record, "ID '" + fields[0] + "' is not a number");
    if (functions.empty() || functions.back().id != static_cast<long>(*id) ||
        functions.back().mangled_name != fields[2]) {
      SourceFunction function;
      function.id = static_cast<long>(*id);
      function.kernel_name = fields[1];
      function.function_name = KernelFunctionName(fields[1]);
      function.mangled_name = fields[2];
      function.columns = columns;
      functions.push_back(std::move(function));
    }
    SourceRow row;
    row.address = fields[3];
    if (!fields[3].empty()) {
      row.offset = ParseHex(fields[3]);
      if (!row.offset) return Located(record, "'" + fields[3] + "' is not an address");
    }
    row.source = std::string(TrimWhitespace(fields[4]));
    row.file = fields[5];
    if (!fields[6].empty()) {
      auto line = ParseMetricNumber(fields[6]);
      if (!line) return Located(record, "Line '" + fields[6] + "' is not a number");
      row.line = static_cast<long>(*line);
    }
    Status read = ReadValues(record, kIdentity.size(), columns, /*strict=*/true, row);
    if (!read.ok()) return read;
    functions.back().rows.push_back(std::move(row));
  }
  return functions;
}

namespace {

bool SamePage(const SourceFunction& a, const SourceFunction& b) {
  if (a.kernel_name != b.kernel_name || a.rows.size() != b.rows.size()) return false;
  for (size_t i = 0; i < a.rows.size(); ++i) {
    if (a.rows[i].address != b.rows[i].address || a.rows[i].source != b.rows[i].source ||
        a.rows[i].values != b.rows[i].values) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::vector<SourceFunction> CollapseRepeatedPages(std::vector<SourceFunction> functions) {
  if (functions.empty() || functions.size() % 2 != 0) return functions;
  for (size_t i = 0; i < functions.size(); i += 2) {
    if (!SamePage(functions[i], functions[i + 1])) return functions;
  }
  std::vector<SourceFunction> kept;
  for (size_t i = 0; i < functions.size(); i += 2) {
    kept.push_back(std::move(functions[i]));
    kept.back().id = static_cast<long>(kept.size()) - 1;
  }
  return kept;
}

std::string SassMnemonic(std::string_view sass) {
  sass = TrimWhitespace(sass);
  // gpuscope's CSV guards cells a spreadsheet would read as a formula ("'@P0 EXIT").
  if (sass.size() > 1 && sass.front() == '\'' && std::string_view("=+-@").find(sass[1]) !=
                                                     std::string_view::npos) {
    sass.remove_prefix(1);
  }
  if (!sass.empty() && sass.front() == '@') {  // the predicate: "@P0", "@!PT"
    size_t space = sass.find_first_of(" \t");
    sass = space == std::string_view::npos ? std::string_view() : TrimWhitespace(sass.substr(space));
  }
  size_t end = sass.find_first_of(" \t;");
  return std::string(sass.substr(0, end));
}

}  // namespace gpuscope::ncu_csv
