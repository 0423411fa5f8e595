#include "store/table_rows.h"

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

struct ExportedTable {
  const char* name;
  const char* query;
  // A table that some reports lack (kernel_metrics before the first evaluation,
  // kernel_findings in reports written before it existed): such a report exports these
  // columns and no rows. nullptr: every report has the table.
  const char* optional_table = nullptr;
  std::vector<std::string> columns_when_absent = {};
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
    // gpuscope profile's results, one row per metric or finding of a profiled launch, with
    // the launch's kernel name and invocation (profiled_kernels_v has the rest).
    {"kernel_metrics",
     "SELECT m.profiled_kernel_id, p.demangled AS kernel, p.invocation, m.metric, m.value, m.unit "
     "FROM kernel_metrics m JOIN profiled_kernels_v p ON p.id = m.profiled_kernel_id "
     "ORDER BY m.profiled_kernel_id, m.metric",
     "kernel_metrics",
     {"profiled_kernel_id", "kernel", "invocation", "metric", "value", "unit"}},
    {"kernel_findings",
     "SELECT f.profiled_kernel_id, p.demangled AS kernel, p.invocation, f.rank, f.rule_id, "
     "f.severity, f.section, f.title, f.message, f.speedup_pct, f.speedup_formula "
     "FROM kernel_findings f JOIN profiled_kernels_v p ON p.id = f.profiled_kernel_id "
     "ORDER BY f.profiled_kernel_id, f.rank",
     "kernel_findings",
     {"profiled_kernel_id", "kernel", "invocation", "rank", "rule_id", "severity", "section",
      "title", "message", "speedup_pct", "speedup_formula"}},
};

StatusOr<bool> HasTable(sqlite3* db, const char* name) {
  const QueryParam params[] = {std::string(name)};
  bool found = false;
  GPUSCOPE_RETURN_IF_ERROR(StepTableRows(
      db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", params,
      "the table list", {}, [&](const TableRow&) {
        found = true;
        return false;
      }));
  return found;
}

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
    if (exported.optional_table != nullptr) {
      StatusOr<bool> present = HasTable(report.db(), exported.optional_table);
      if (!present.ok()) return present.status();
      if (!*present) {
        columns(exported.columns_when_absent);
        return {};
      }
    }
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
