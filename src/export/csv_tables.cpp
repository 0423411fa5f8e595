#include "export/csv_tables.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "render/escaping.h"
#include "store/table_rows.h"

namespace gpuscope::exporter {
namespace {

std::string FormatValue(const store::FieldValue& value) {
  switch (value.kind) {
    case store::FieldValue::Kind::kNull:
      return "";
    case store::FieldValue::Kind::kInteger:
      return std::to_string(value.integer);
    case store::FieldValue::Kind::kReal: {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", value.real);
      return text;
    }
    case store::FieldValue::Kind::kText:
      break;
  }
  return CsvField(value.text);
}

Status WriteTable(const store::ReportReader& report, const std::string& table,
                  const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot create " + file.string());
  GPUSCOPE_RETURN_IF_ERROR(WriteCsvTable(report, table, out));
  out.flush();
  if (!out) return Status::Error("cannot write " + file.string());
  return {};
}

}  // namespace

std::string CsvField(std::string_view text) { return render::CsvField(text); }

Status WriteCsvTable(const store::ReportReader& report, const std::string& table,
                     std::ostream& out) {
  // The header comes first, also for an empty table, so that scripts see the columns.
  auto header = [&](std::span<const std::string> columns) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      out << (i ? "," : "") << CsvField(columns[i]);
    }
    out << "\r\n";
  };
  std::string line;
  return store::ForEachExportedRow(report, table, header, [&](const store::TableRow& row) {
    line.clear();
    for (std::size_t i = 0; i < row.values.size(); ++i) {
      if (i) line += ',';
      line += FormatValue(row.values[i]);
    }
    line += "\r\n";
    out << line;
    return static_cast<bool>(out);
  });
}

const std::vector<std::string>& CsvTableNames() { return store::ExportedTableNames(); }

Status WriteCsvTables(const store::ReportReader& report, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return Status::Error("cannot create directory " + directory + ": " + error.message());
  for (const std::string& table : CsvTableNames()) {
    GPUSCOPE_RETURN_IF_ERROR(
        WriteTable(report, table, std::filesystem::path(directory) / (table + ".csv")));
  }
  return {};
}

}  // namespace gpuscope::exporter
