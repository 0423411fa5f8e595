// Prints the report's event tables as JSON, straight from their one declaration
// (src/store/event_table_defs.h): per table its name and start column, per column its SQL
// name, how it is stored and its meaning. The Python package (python/gpuscope) reads a copy
// of this output (python/gpuscope/event_tables.json); tests/python checks that the copy is
// what this program prints, so the two sides cannot drift apart.
#include <iostream>
#include <string>
#include <string_view>
#include <tuple>

#include "render/escaping.h"
#include "store/event_tables.h"
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

}  // namespace

int main() {
  std::cout << "{\n  \"format\": " << JsonString(gpuscope::store::kReportFormat)
            << ",\n  \"application_id\": " << gpuscope::store::kApplicationId
            << ",\n  \"schema_version\": " << gpuscope::store::kSchemaVersion
            << ",\n  \"oldest_readable_schema_version\": "
            << gpuscope::store::kOldestReadableSchemaVersion << ",\n  \"tables\": [\n";
  PrintTables(gpuscope::store::EventTableList{});
  std::cout << "  ]\n}\n";
  return std::cout.good() ? 0 : 1;
}
