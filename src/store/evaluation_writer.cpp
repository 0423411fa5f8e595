#include "store/evaluation_writer.h"

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <utility>

#include "store/create_table_sql.h"
#include "store/declared_sql.h"
#include "store/profile_table_defs.h"
#include "store/record_binder.h"
#include "store/report_update.h"
#include "store/run_table_defs.h"
#include "store/source_table_defs.h"
#include "store/sqlite_util.h"
#include "util/comma_list.h"

namespace gpuscope::store {
namespace {

// Creates `table` as a new report has it, unless the report has it: reports older than the
// evaluation's tables lack them (kernel_findings, the source tables), and a crafted one may.
bool CreateIfMissing(sqlite3* db, const TableInfo& table) {
  const std::string create = CreateTableSql(table, /*if_not_exists=*/true);
  return sqlite3_exec(db, create.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
}

// Each step below finalises its statements before it returns: COMMIT, ROLLBACK and the close
// then find no statement of theirs still active.

// Replaces the rows of `table` that belong to each kernel of `rows`: deletes them, then
// inserts the new ones, binding the kernel's id to the table's first column, profiled_kernel_id,
// and the rest with `bind(statement, index in the kernel's list, row)`.
template <typename Row, typename Bind>
bool ReplaceRowsOfKernels(sqlite3* db, const TableInfo& table,
                          const std::map<std::int64_t, std::vector<Row>>& rows, Bind bind) {
  StatusOr<Statement> remove = Statement::Prepare(
      db, "DELETE FROM " + std::string(table.name) + " WHERE profiled_kernel_id = ?1");
  StatusOr<Statement> insert = Statement::Prepare(db, InsertSql(table));
  if (!remove.ok() || !insert.ok()) return false;
  for (const auto& [id, list] : rows) {
    sqlite3_bind_int64(remove->get(), 1, id);
    if (sqlite3_step(remove->get()) != SQLITE_DONE) return false;
    sqlite3_reset(remove->get());
    for (std::size_t i = 0; i < list.size(); ++i) {
      sqlite3_stmt* st = insert->get();
      sqlite3_bind_int64(st, 1, id);
      bind(st, i, list[i]);
      if (sqlite3_step(st) != SQLITE_DONE) return false;
      sqlite3_reset(st);
    }
  }
  return true;
}

bool ReplaceMetrics(sqlite3* db, const std::map<std::int64_t, std::vector<StoredMetric>>& metrics) {
  return ReplaceRowsOfKernels(db, kKernelMetricsTable, metrics,
                              [](sqlite3_stmt* st, std::size_t, const StoredMetric& metric) {
                                BindRecord(st, metric, kKernelMetricsRecordColumns);
                              });
}

bool StoreRequest(sqlite3* db, const ProfileRequest& request) {
  StatusOr<Statement> meta = Statement::Prepare(db, InsertSql(kMetaTable, "OR REPLACE"));
  if (!meta.ok()) return false;
  const std::string sections = JoinCommaList(request.sections);
  const std::string requested = JoinCommaList(request.metrics);
  const std::pair<const char*, const std::string*> rows[] = {{"profile_sections", &sections},
                                                             {"profile_metrics", &requested},
                                                             {"profile_replay", &request.replay}};
  for (const auto& [key, value] : rows) {
    // Reports of older versions, evaluated again, do not say how they were replayed.
    if (value->empty() && value == &request.replay) continue;
    sqlite3_bind_text(meta->get(), 1, key, -1, SQLITE_STATIC);
    BindText(meta->get(), 2, *value);
    if (sqlite3_step(meta->get()) != SQLITE_DONE) return false;
    sqlite3_reset(meta->get());
  }
  return true;
}

bool ReplaceFindings(sqlite3* db,
                     const std::map<std::int64_t, std::vector<StoredFinding>>& findings) {
  if (!CreateIfMissing(db, kKernelFindingsTable)) return false;
  return ReplaceRowsOfKernels(
      db, kKernelFindingsTable, findings,
      [](sqlite3_stmt* st, std::size_t rank, const StoredFinding& finding) {
        sqlite3_bind_int64(st, ColumnIndex(kKernelFindingsColumns, "rank") + 1,
                           static_cast<std::int64_t>(rank));
        BindRecord(st, finding, kKernelFindingsRecordColumns);
      });
}

// The files first (their ids are what the instructions store), then the instructions.
bool StoreSource(sqlite3* db, const SourceRows& source) {
  if (!CreateIfMissing(db, kSassInstructionsTable) || !CreateIfMissing(db, kSourceFilesTable)) {
    return false;
  }
  StatusOr<Statement> add_file = Statement::Prepare(db, InsertSql(kSourceFilesTable, "OR IGNORE"));
  StatusOr<Statement> file_id =
      Statement::Prepare(db, "SELECT id FROM source_files WHERE path = ?1");
  StatusOr<Statement> add_instruction =
      Statement::Prepare(db, InsertSql(kSassInstructionsTable, "OR REPLACE"));
  if (!add_file.ok() || !file_id.ok() || !add_instruction.ok()) return false;
  std::map<std::string, std::int64_t> ids;
  for (const auto& file : source.files) {
    BindRecord(add_file->get(), file, kSourceFilesRecordColumns);
    if (sqlite3_step(add_file->get()) != SQLITE_DONE) return false;
    sqlite3_reset(add_file->get());
    BindText(file_id->get(), 1, file.first);
    if (sqlite3_step(file_id->get()) != SQLITE_ROW) return false;
    ids[file.first] = sqlite3_column_int64(file_id->get(), 0);
    sqlite3_reset(file_id->get());
  }
  constexpr int kFileId = ColumnIndex(kSassInstructionsColumns, "file_id") + 1;
  constexpr int kLine = ColumnIndex(kSassInstructionsColumns, "line") + 1;
  sqlite3_stmt* st = add_instruction->get();
  for (const SassInstructionRow& row : source.instructions) {
    BindRecord(st, row, kSassInstructionsRecordColumns);
    auto id = row.file ? ids.find(*row.file) : ids.end();
    if (id != ids.end() && row.line) {
      sqlite3_bind_int64(st, kFileId, id->second);
      sqlite3_bind_int64(st, kLine, *row.line);
    } else {
      sqlite3_bind_null(st, kFileId);
      sqlite3_bind_null(st, kLine);
    }
    if (sqlite3_step(st) != SQLITE_DONE) return false;
    sqlite3_reset(st);
  }
  return true;
}

}  // namespace

Status WriteEvaluation(const std::string& path, const EvaluationRows& rows) {
  const std::string metrics_context = "cannot store the metrics in " + path;
  // `stats --page details link.sqlite` names an existing report: its evaluation goes there.
  StatusOr<std::unique_ptr<ReportUpdate>> update = ReportUpdate::Begin(path, metrics_context);
  if (!update.ok()) return update.status();
  sqlite3* db = (*update)->db();
  std::string failed;  // the context of the step that failed
  if (rows.counters && (!ReplaceMetrics(db, rows.metrics) || !StoreRequest(db, rows.request))) {
    failed = metrics_context;
  } else if (!rows.findings.empty() && !ReplaceFindings(db, rows.findings)) {
    failed = "cannot store the findings in " + path;
  } else if (!rows.source.instructions.empty() && !StoreSource(db, rows.source)) {
    failed = "cannot store the SASS instructions in " + path;
  }
  if (!failed.empty()) return (*update)->Fail(failed);
  return (*update)->Commit(metrics_context);
}

}  // namespace gpuscope::store
