// Prints the report's tables as JSON, straight from their one declaration: the event tables
// (src/store/event_table_defs.h): per table its name and start column, per column its SQL
// name, how it is stored and its meaning; every table of a report (src/store/report_tables.h)
// with its columns, their SQL types and meanings; and the names of every table and view a
// report may hold (the objects the statements that create a report make), which the readers
// of both sides check a file's schema against. The Python package (python/gpuscope) reads a copy
// of this output (python/gpuscope/event_tables.json); tests/python checks that the copy is
// what this program prints, so the two sides cannot drift apart.
#include <sqlite3.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "render/escaping.h"
#include "store/create_table_sql.h"
#include "store/event_tables.h"
#include "store/report_tables.h"
#include "store/schema.h"

namespace {

using gpuscope::render::JsonString;
using gpuscope::store::Stored;

std::string_view StoredName(Stored how) {
  switch (how) {
    case Stored::kInteger:
      return "integer";
    case Stored::kTime:
      return "time";
    case Stored::kName:
      return "name";
    case Stored::kKernelName:
      return "kernel_name";
    case Stored::kOptionalName:
      return "optional_name";
    case Stored::kWriterFlag:
      return "writer_flag";
    case Stored::kOptionalInteger:
      return "optional_integer";
  }
  return "unknown";
}

template <typename Table>
void PrintTable(bool last) {
  std::cout << "    {\"name\": " << JsonString(Table::kName)
            << ", \"start_column\": " << JsonString(Table::kStartColumn) << ", \"columns\": [\n";
  std::size_t index = 0;
  std::apply(
      [&](const auto&... column) {
        ((std::cout << "      {\"name\": " << JsonString(column.name) << ", \"stored\": "
                    << JsonString(StoredName(std::decay_t<decltype(column)>::kStored))
                    << ", \"doc\": " << JsonString(column.doc) << "}"
                    << (++index < gpuscope::store::kColumnCount<Table> ? ",\n" : "\n")),
         ...);
      },
      gpuscope::store::kColumnsOf<Table>);
  std::cout << "    ]}" << (last ? "\n" : ",\n");
}

template <typename... Tables>
void PrintTables(gpuscope::store::TableList<Tables...>) {
  std::size_t index = 0;
  (PrintTable<Tables>(++index == sizeof...(Tables)), ...);
}

// The lower-cased names of the objects of `type` ("table", "view") that the statements
// creating a report make, in name order; run on an empty database rather than parsed, so that
// the list is what the writer creates.
std::vector<std::string> SchemaObjectNames(std::string_view type) {
  std::vector<std::string> names;
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
      sqlite3_exec(db, gpuscope::store::ReportSchemaSql().c_str(), nullptr, nullptr, nullptr) !=
          SQLITE_OK) {
    std::cerr << "print_event_tables: the report schema does not run: " << sqlite3_errmsg(db)
              << '\n';
    std::exit(1);
  }
  sqlite3_stmt* stmt = nullptr;
  sqlite3_prepare_v2(db,
                     "SELECT lower(name) FROM sqlite_master WHERE type = ?1 AND name NOT LIKE "
                     "'sqlite\\_%' ESCAPE '\\' ORDER BY 1",
                     -1, &stmt, nullptr);
  sqlite3_bind_text(stmt, 1, type.data(), static_cast<int>(type.size()), SQLITE_STATIC);
  while (sqlite3_step(stmt) == SQLITE_ROW) {
    names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return names;
}

// Every declared table, in creation order: its name, what a row is and its columns.
void PrintReportTables() {
  using gpuscope::store::kReportTables;
  std::cout << "  \"report_table_columns\": [\n";
  for (std::size_t t = 0; t < kReportTables.size(); ++t) {
    const gpuscope::store::TableInfo& table = kReportTables[t];
    std::cout << "    {\"name\": " << JsonString(table.name) << ", \"doc\": "
              << JsonString(table.doc) << ", \"columns\": [\n";
    std::vector<gpuscope::store::ColumnInfo> columns;
    if (table.insertion_order_id) columns.push_back(gpuscope::store::kInsertionOrderId);
    columns.insert(columns.end(), table.columns.begin(), table.columns.end());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      std::cout << "      {\"name\": " << JsonString(columns[c].name)
                << ", \"sql_type\": " << JsonString(columns[c].sql_type)
                << ", \"doc\": " << JsonString(columns[c].doc) << "}"
                << (c + 1 < columns.size() ? ",\n" : "\n");
    }
    std::cout << "    ]}" << (t + 1 < kReportTables.size() ? ",\n" : "\n");
  }
  std::cout << "  ],\n";
}

void PrintNames(std::string_view key, const std::vector<std::string>& names, bool last) {
  std::cout << "  " << JsonString(key) << ": [";
  for (std::size_t i = 0; i < names.size(); ++i) {
    std::cout << (i == 0 ? "" : ", ") << JsonString(names[i]);
  }
  std::cout << "]" << (last ? "\n" : ",\n");
}

}  // namespace

int main() {
  std::cout << "{\n  \"format\": " << JsonString(gpuscope::store::kReportFormat)
            << ",\n  \"application_id\": " << gpuscope::store::kApplicationId
            << ",\n  \"schema_version\": " << gpuscope::store::kSchemaVersion
            << ",\n  \"oldest_readable_schema_version\": "
            << gpuscope::store::kOldestReadableSchemaVersion << ",\n  \"tables\": [\n";
  PrintTables(gpuscope::store::EventTableList{});
  std::cout << "  ],\n";
  PrintReportTables();
  PrintNames("report_tables", SchemaObjectNames("table"), false);
  PrintNames("report_views", SchemaObjectNames("view"), true);
  std::cout << "}\n";
  return std::cout.good() ? 0 : 1;
}
