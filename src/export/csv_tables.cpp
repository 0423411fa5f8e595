#include "export/csv_tables.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "export/sql_rows.h"
#include "render/escaping.h"

namespace gpuscope::exporter {
namespace {

struct CsvTable {
  const char* name;
  const char* query;
};

const CsvTable kTables[] = {
    {"kernels", "SELECT * FROM kernels_v ORDER BY start, id"},
    {"memcpys", "SELECT * FROM memcpys_v ORDER BY start, id"},
    {"memsets", "SELECT * FROM memsets_v ORDER BY start, id"},
    {"api_calls", "SELECT * FROM api_calls_v ORDER BY start, id"},
    {"nvtx", "SELECT * FROM nvtx_v ORDER BY start, id"},
    {"memory", "SELECT * FROM memory_v ORDER BY timestamp, id"},
    {"syncs", "SELECT * FROM syncs_v ORDER BY start, id"},
    {"overheads", "SELECT * FROM overheads_v ORDER BY start, id"},
    {"devices", "SELECT * FROM devices ORDER BY id"},
};

std::string FormatValue(const SqlValue& value) {
  switch (value.kind) {
    case SqlValue::Kind::kNull:
      return "";
    case SqlValue::Kind::kInteger:
      return std::to_string(value.integer);
    case SqlValue::Kind::kReal: {
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", value.real);
      return text;
    }
    case SqlValue::Kind::kText:
      break;
  }
  return CsvField(value.text);
}

Status WriteTable(const store::ReportReader& report, const CsvTable& table,
                  const std::filesystem::path& file) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  if (!out) return Status::Error("cannot create " + file.string());
  bool header_written = false;
  std::string line;
  auto header = [&](std::span<const std::string> columns) {
    for (std::size_t i = 0; i < columns.size(); ++i) {
      out << (i ? "," : "") << CsvField(columns[i]);
    }
    out << "\r\n";
    header_written = true;
  };
  Status read = QueryRows(report.db(), table.query, {}, std::string("table ") + table.name,
                          [&](const SqlRow& row) {
                            if (!header_written) header(row.columns);
                            line.clear();
                            for (std::size_t i = 0; i < row.values.size(); ++i) {
                              if (i) line += ',';
                              line += FormatValue(row.values[i]);
                            }
                            line += "\r\n";
                            out << line;
                            return static_cast<bool>(out);
                          });
  GPUSCOPE_RETURN_IF_ERROR(read);
  if (!header_written) {
    // An empty table still gets its header, so scripts see the columns; with no row to
    // name them, they come from the view's (or table's) declaration.
    std::vector<std::string> names;
    GPUSCOPE_RETURN_IF_ERROR(QueryRows(
        report.db(),
        std::string("SELECT name FROM pragma_table_info('") +
            (std::string(table.name) == "devices" ? "devices" : std::string(table.name) + "_v") +
            "')",
        {}, std::string("columns of ") + table.name, [&](const SqlRow& row) {
          names.emplace_back(row.values[0].text);
          return true;
        }));
    header(names);
  }
  out.flush();
  if (!out) return Status::Error("cannot write " + file.string());
  return {};
}

}  // namespace

std::string CsvField(std::string_view text) { return render::CsvField(text); }

const std::vector<std::string>& CsvTableNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const CsvTable& table : kTables) names.emplace_back(table.name);
    return names;
  }();
  return kNames;
}

Status WriteCsvTables(const store::ReportReader& report, const std::string& directory) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error) return Status::Error("cannot create directory " + directory + ": " + error.message());
  for (const CsvTable& table : kTables) {
    GPUSCOPE_RETURN_IF_ERROR(WriteTable(
        report, table, std::filesystem::path(directory) / (std::string(table.name) + ".csv")));
  }
  return {};
}

}  // namespace gpuscope::exporter
