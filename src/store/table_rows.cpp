#include "store/table_rows.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "store/query_rows.h"
#include "store/report_text.h"

namespace gpuscope::store {
namespace {

// A column that holds a name of the strings table. The view joins the name in whole, once
// per row, and SQLite copies every row it sorts: a kernel named by 10 MB made a CSV export of
// 300 launches take 144 s and 6 GB. So the export selects the name's id in its place and the
// row gets the reader's string, loaded (and shortened: report_text.h) once.
struct NameColumn {
  const char* column;      // the view's column, e.g. "name"
  const char* id_column;   // the base table's column holding the string id, e.g. "name_id"
  bool demangled = false;  // kernel names: the demangled text, as the view gives it
};

struct ExportedTable {
  const char* name;
  // One of: the view read whole (as `v`), `order` its ORDER BY ("v.start, v.id")...
  const char* view = nullptr;
  const char* order = nullptr;
  // ...whose name columns come from `base_table` joined on id...
  const char* base_table = nullptr;
  std::vector<NameColumn> names = {};
  // ...or a query as written (its name columns then hold the ids already).
  const char* query = nullptr;
  // A table that some reports lack (kernel_metrics before the first evaluation,
  // kernel_findings in reports written before it existed): such a report exports these
  // columns and no rows. nullptr: every report has the table.
  const char* optional_table = nullptr;
  std::vector<std::string> columns_when_absent = {};
};

// profiled_kernels_v's `demangled` as an id: NULL where the string has no demangled text
// (a range's name). SQLite answers typeof() from the row's header, never reading the bytes.
#define KERNEL_NAME_ID "CASE WHEN typeof(s.demangled) = 'null' THEN NULL ELSE p.name_id END"

const ExportedTable kExportedTables[] = {
    {.name = "kernels",
     .view = "kernels_v",
     .order = "v.start, v.id",
     .base_table = "kernels",
     .names = {{"name", "name_id", true}, {"mangled_name", "name_id"}}},
    {.name = "memcpys", .view = "memcpys_v", .order = "v.start, v.id"},
    {.name = "memsets", .view = "memsets_v", .order = "v.start, v.id"},
    {.name = "api_calls",
     .view = "api_calls_v",
     .order = "v.start, v.id",
     .base_table = "api_calls",
     .names = {{"name", "name_id"}}},
    {.name = "nvtx",
     .view = "nvtx_v",
     .order = "v.start, v.id",
     .base_table = "nvtx",
     .names = {{"name", "name_id"}, {"domain", "domain_id"}}},
    {.name = "memory", .view = "memory_v", .order = "v.timestamp, v.id"},
    {.name = "syncs", .view = "syncs_v", .order = "v.start, v.id"},
    {.name = "overheads",
     .view = "overheads_v",
     .order = "v.start, v.id",
     .base_table = "overheads",
     .names = {{"name", "name_id"}}},
    {.name = "devices", .view = "devices", .order = "v.id"},
    // gpuscope profile's results, one row per metric or finding of a profiled launch, with
    // the launch's kernel name and invocation (profiled_kernels_v has the rest).
    {.name = "kernel_metrics",
     .names = {{"kernel", nullptr, true}},
     .query = "SELECT m.profiled_kernel_id, " KERNEL_NAME_ID
              " AS kernel, p.invocation, m.metric, m.value, m.unit FROM kernel_metrics m "
              "JOIN profiled_kernels p ON p.id = m.profiled_kernel_id "
              "LEFT JOIN strings s ON s.id = p.name_id ORDER BY m.profiled_kernel_id, m.metric",
     .optional_table = "kernel_metrics",
     .columns_when_absent = {"profiled_kernel_id", "kernel", "invocation", "metric", "value",
                             "unit"}},
    {.name = "kernel_findings",
     .names = {{"kernel", nullptr, true}},
     .query = "SELECT f.profiled_kernel_id, " KERNEL_NAME_ID
              " AS kernel, p.invocation, f.rank, f.rule_id, f.severity, f.section, f.title, "
              "f.message, f.speedup_pct, f.speedup_formula FROM kernel_findings f "
              "JOIN profiled_kernels p ON p.id = f.profiled_kernel_id "
              "LEFT JOIN strings s ON s.id = p.name_id ORDER BY f.profiled_kernel_id, f.rank",
     .optional_table = "kernel_findings",
     .columns_when_absent = {"profiled_kernel_id", "kernel", "invocation", "rank", "rule_id",
                             "severity", "section", "title", "message", "speedup_pct",
                             "speedup_formula"}},
};

#undef KERNEL_NAME_ID

// "name" -> "\"name\"": the view's column names come from the file, so they are quoted.
std::string Quoted(std::string_view identifier) {
  std::string quoted = "\"";
  for (char c : identifier) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// The query of `table`: its view's columns in the view's order, the name columns replaced by
// their ids from the base table.
StatusOr<std::string> ExportQuery(const ReportReader& report, const ExportedTable& table) {
  if (table.query != nullptr) return std::string(table.query);
  const std::string whole = "SELECT * FROM " + std::string(table.view);
  if (table.names.empty()) return whole + " v ORDER BY " + table.order;
  std::vector<std::string> columns;
  GPUSCOPE_RETURN_IF_ERROR(StepTableRows(
      report.db(), whole + " LIMIT 0", {}, "table " + std::string(table.name),
      [&](std::span<const std::string> names) { columns.assign(names.begin(), names.end()); },
      [](const TableRow&) { return false; }));
  std::string select;
  for (const std::string& column : columns) {
    std::string value = "v." + Quoted(column);
    for (const NameColumn& name : table.names) {
      if (column == name.column) value = "b." + std::string(name.id_column);
    }
    select += (select.empty() ? "" : ", ") + value + " AS " + Quoted(column);
  }
  return "SELECT " + select + " FROM " + table.view + " v JOIN " + table.base_table +
         " b ON b.id = v.id ORDER BY " + table.order;
}

// Hands `row` each row with its name columns' ids (NameColumn) turned into the reader's
// strings (NULL for an id the report does not have) and every other text longer than
// kMaxReportTextBytes shortened by the reader, as all free text it returns.
class NamedRows {
 public:
  NamedRows(const ReportReader& report, std::span<const NameColumn> names,
            std::function<void(std::span<const std::string>)> columns,
            std::function<bool(const TableRow&)> row)
      : report_(report), names_(names), columns_(std::move(columns)), row_(std::move(row)) {}

  void Columns(std::span<const std::string> columns) {
    name_at_.assign(columns.size(), nullptr);
    for (std::size_t c = 0; c < columns.size(); ++c) {
      for (const NameColumn& name : names_) {
        if (columns[c] == name.column) name_at_[c] = &name;
      }
    }
    if (columns_) columns_(columns);
  }

  bool Row(const TableRow& row) {
    values_.assign(row.values.begin(), row.values.end());
    texts_.resize(values_.size());
    for (std::size_t c = 0; c < values_.size(); ++c) {
      FieldValue& value = values_[c];
      if (c < name_at_.size() && name_at_[c] != nullptr &&
          value.kind == FieldValue::Kind::kInteger) {
        const std::optional<std::string_view> text = name_at_[c]->demangled
                                                         ? report_.DemangledString(value.integer)
                                                         : report_.String(value.integer);
        value = text ? FieldValue{FieldValue::Kind::kText, 0, 0, *text} : FieldValue{};
      } else if (value.text.size() > kMaxReportTextBytes) {
        texts_[c] = report_.ReportText(value.text);
        value.text = texts_[c];
      }
    }
    return row_(TableRow{row.columns, values_});
  }

 private:
  const ReportReader& report_;
  std::span<const NameColumn> names_;
  std::function<void(std::span<const std::string>)> columns_;
  std::function<bool(const TableRow&)> row_;
  std::vector<const NameColumn*> name_at_;  // per result column: its NameColumn, if any
  std::vector<FieldValue> values_;
  std::vector<std::string> texts_;
};

StatusOr<bool> HasTable(sqlite3* db, const char* name) {
  const QueryParam params[] = {std::string(name)};
  bool found = false;
  GPUSCOPE_RETURN_IF_ERROR(
      StepTableRows(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1", params,
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
    StatusOr<std::string> query = ExportQuery(report, exported);
    if (!query.ok()) return query.status();
    NamedRows named(report, exported.names, columns, row);
    return StepTableRows(
        report.db(), *query, {}, "table " + std::string(table),
        [&](std::span<const std::string> names) { named.Columns(names); },
        [&](const TableRow& values) { return named.Row(values); });
  }
  return Status::Error("no exported table named " + std::string(table));
}

StatusOr<bool> ReadEventRow(const ReportReader& report, EventTable table, std::uint32_t id,
                            const std::function<void(const TableRow&)>& row) {
  // One row: the view's names joined in whole are read once, then shortened like the rest.
  const std::string sql = "SELECT * FROM " + std::string(Info(table).name) + "_v WHERE id = ?1";
  const QueryParam params[] = {std::int64_t{id}};
  bool found = false;
  NamedRows named(report, {}, nullptr, [&](const TableRow& values) {
    found = true;
    row(values);
    return false;
  });
  GPUSCOPE_RETURN_IF_ERROR(
      StepTableRows(report.db(), sql, params, "the event", nullptr,
                    [&](const TableRow& values) { return named.Row(values); }));
  return found;
}

}  // namespace gpuscope::store
