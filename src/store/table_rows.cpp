#include "store/table_rows.h"

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

struct ExportedTable {
  const char* name;
  const char* query;
};

const ExportedTable kExportedTables[] = {
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

}  // namespace

const std::vector<std::string>& ExportedTableNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const ExportedTable& table : kExportedTables) names.emplace_back(table.name);
    return names;
  }();
  return kNames;
}

Status ForEachExportedRow(const ReportReader& report, std::string_view table,
                          const std::function<void(std::span<const std::string>)>& columns,
                          const std::function<bool(const TableRow&)>& row) {
  for (const ExportedTable& exported : kExportedTables) {
    if (exported.name != table) continue;
    return StepTableRows(report.db(), exported.query, {}, "table " + std::string(table), columns,
                         row);
  }
  return Status::Error("no exported table named " + std::string(table));
}

StatusOr<bool> ReadEventRow(const ReportReader& report, EventTable table, std::uint32_t id,
                            const std::function<void(const TableRow&)>& row) {
  const std::string sql = "SELECT * FROM " + std::string(Info(table).name) + "_v WHERE id = ?1";
  const QueryParam params[] = {std::int64_t{id}};
  bool found = false;
  GPUSCOPE_RETURN_IF_ERROR(
      StepTableRows(report.db(), sql, params, "the event", nullptr, [&](const TableRow& values) {
        found = true;
        row(values);
        return false;
      }));
  return found;
}

}  // namespace gpuscope::store
