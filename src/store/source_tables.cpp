#include "store/source_tables.h"

#include <sqlite3.h>

#include "store/counter_data_codec.h"
#include "store/declared_sql.h"
#include "store/record_decoder.h"
#include "store/source_table_defs.h"
#include "store/sqlite_util.h"

namespace gpuscope::store {
namespace {

// A cubin is a few MiB at most in practice (a large PyTorch module ~100 MiB); a stored size
// above this is damage or a crafted report, refused before anything is allocated.
constexpr std::uint64_t kMaxCubinBytes = 512ull << 20;

Status ReadError(const ReportReader& report, const char* what) {
  return ReportReadError(report.db(), what, report.path());
}

std::uint64_t ColumnU64(sqlite3_stmt* s, int column) {
  return static_cast<std::uint64_t>(sqlite3_column_int64(s, column));
}

}  // namespace

bool HasSourceTables(const ReportReader& report) {
  return TableExists(report.db(), "instruction_values") && TableExists(report.db(), "cubins") &&
         TableExists(report.db(), "kernel_source");
}

bool HasSourceResultTables(const ReportReader& report) {
  return TableExists(report.db(), "sass_instructions") && TableExists(report.db(), "source_files");
}

StatusOr<std::vector<StoredInstructionValue>> ReadInstructionValues(
    const ReportReader& report, std::optional<std::int64_t> profiled_kernel_id) {
  std::vector<StoredInstructionValue> values;
  if (!HasSourceTables(report)) return values;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), SelectSql(kInstructionValuesTable) +
                       " WHERE ?1 IS NULL OR profiled_kernel_id = ?1 "
                       "ORDER BY profiled_kernel_id, cubin_crc, function_id, pc_offset");
  if (!stmt.ok()) return ReadError(report, "cannot read the instruction values of");
  if (profiled_kernel_id) sqlite3_bind_int64(stmt->get(), 1, *profiled_kernel_id);
  constexpr int kValue = ColumnIndex(kInstructionValuesColumns, "value");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredInstructionValue v;
    // Function and metric names from the reader's strings (shortened once there).
    ReadRecord(s, v, kInstructionValuesRecordColumns, report);
    // A negative count cannot be true: the row is left out rather than shown as 2^64 - n.
    if (sqlite3_column_int64(s, kValue) < 0 || v.metric.empty()) continue;
    v.function = report.String(v.function_id).value_or("");
    values.push_back(std::move(v));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the instruction values of");
  return values;
}

namespace {

// The condition "the value's cubin is not disassembled yet"; every cubin when the results
// table is missing (a crafted report), since the evaluation creates it.
std::string NotDisassembled(const ReportReader& report) {
  return HasSourceResultTables(report)
             ? "v.cubin_crc NOT IN (SELECT cubin_crc FROM sass_instructions)"
             : "1";
}

}  // namespace

StatusOr<bool> HasUndisassembledCubins(const ReportReader& report) {
  if (!HasSourceTables(report)) return false;
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(), "SELECT 1 FROM instruction_values v WHERE " +
                                          NotDisassembled(report) + " LIMIT 1");
  if (!stmt.ok()) return ReadError(report, "cannot read the instruction values of");
  int rc = sqlite3_step(stmt->get());
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
    return ReadError(report, "cannot read the instruction values of");
  }
  return rc == SQLITE_ROW;
}

StatusOr<std::vector<InstructionSite>> ReadUndisassembledSites(const ReportReader& report) {
  std::vector<InstructionSite> sites;
  if (!HasSourceTables(report)) return sites;
  // The function names whole, not shortened as the reader's strings are: they are looked up
  // in the cubin, which holds them whole. The distinct sites are no table's rows: the query
  // names its columns itself.
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      "SELECT DISTINCT v.cubin_crc, v.function_id, f.value, v.pc_offset "
      "FROM instruction_values v LEFT JOIN strings f ON f.id = v.function_id WHERE " +
          NotDisassembled(report) + " ORDER BY v.cubin_crc, v.function_id, v.pc_offset");
  if (!stmt.ok()) return ReadError(report, "cannot read the instruction values of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    InstructionSite site;
    site.cubin_crc = ColumnU64(s, 0);
    site.function_id = sqlite3_column_int64(s, 1);
    site.function = ColumnText(s, 2);
    site.pc_offset = ColumnU64(s, 3);
    sites.push_back(std::move(site));
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the instruction values of");
  return sites;
}

StatusOr<std::map<std::int64_t, StoredKernelSource>> ReadKernelSources(const ReportReader& report) {
  std::map<std::int64_t, StoredKernelSource> sources;
  if (!HasSourceTables(report)) return sources;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), SelectSql(kKernelSourceTable) + " ORDER BY profiled_kernel_id");
  if (!stmt.ok()) return ReadError(report, "cannot read the source collection of");
  constexpr int kKernel = ColumnIndex(kKernelSourceColumns, "profiled_kernel_id");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    StoredKernelSource source;
    ReadRecord(stmt->get(), source, kKernelSourceRecordColumns, report);
    sources[sqlite3_column_int64(stmt->get(), kKernel)] = std::move(source);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the source collection of");
  return sources;
}

StatusOr<std::vector<std::uint64_t>> ReadCubinCrcs(const ReportReader& report) {
  std::vector<std::uint64_t> crcs;
  if (!HasSourceTables(report)) return crcs;
  StatusOr<Statement> stmt = Statement::Prepare(report.db(), "SELECT crc FROM cubins ORDER BY crc");
  if (!stmt.ok()) return ReadError(report, "cannot read the cubins of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) crcs.push_back(ColumnU64(stmt->get(), 0));
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the cubins of");
  return crcs;
}

StatusOr<std::vector<std::uint8_t>> ReadCubin(const ReportReader& report, std::uint64_t crc) {
  const std::string which = "cubin " + std::to_string(crc) + " of " + report.path();
  if (!HasSourceTables(report)) return Status::Error("report " + report.path() + " has no cubins");
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(), "SELECT size, image FROM cubins WHERE crc = ?1");
  if (!stmt.ok()) return ReadError(report, "cannot read the cubins of");
  sqlite3_bind_int64(stmt->get(), 1, static_cast<std::int64_t>(crc));
  int rc = sqlite3_step(stmt->get());
  if (rc == SQLITE_DONE) return Status::Error("no " + which);
  if (rc != SQLITE_ROW) return ReadError(report, "cannot read the cubins of");
  const std::int64_t size = sqlite3_column_int64(stmt->get(), 0);
  const auto* blob = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt->get(), 1));
  const auto bytes = static_cast<std::size_t>(sqlite3_column_bytes(stmt->get(), 1));
  if (size <= 0 || static_cast<std::uint64_t>(size) > kMaxCubinBytes || blob == nullptr) {
    return Status::Error(which + " is damaged (size " + std::to_string(size) + ")");
  }
  StatusOr<std::vector<std::uint8_t>> image =
      DecompressCounterData({blob, bytes}, static_cast<std::size_t>(size));
  if (!image.ok()) return Status::Error(which + ": " + image.status().message());
  return image;
}

StatusOr<std::vector<StoredSassInstruction>> ReadSassInstructions(const ReportReader& report) {
  std::vector<StoredSassInstruction> rows;
  if (!HasSourceResultTables(report)) return rows;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(),
      SelectSql(kSassInstructionsTable) + " ORDER BY cubin_crc, function_id, pc_offset");
  if (!stmt.ok()) return ReadError(report, "cannot read the SASS instructions of");
  constexpr int kLine = ColumnIndex(kSassInstructionsColumns, "line");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    sqlite3_stmt* s = stmt->get();
    StoredSassInstruction& row = rows.emplace_back();
    ReadRecord(s, row, kSassInstructionsRecordColumns, report);
    // Function names from the reader's strings (shortened once there).
    row.function = report.String(row.function_id).value_or("");
    if (sqlite3_column_type(s, kLine) != SQLITE_NULL && sqlite3_column_int64(s, kLine) > 0) {
      row.line = ColumnU32(s, kLine);
    }
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the SASS instructions of");
  return rows;
}

StatusOr<std::vector<std::uint64_t>> ReadDisassembledCubinCrcs(const ReportReader& report) {
  std::vector<std::uint64_t> crcs;
  if (!HasSourceResultTables(report)) return crcs;
  StatusOr<Statement> stmt = Statement::Prepare(
      report.db(), "SELECT DISTINCT cubin_crc FROM sass_instructions ORDER BY cubin_crc");
  if (!stmt.ok()) return ReadError(report, "cannot read the SASS instructions of");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) crcs.push_back(ColumnU64(stmt->get(), 0));
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the SASS instructions of");
  return crcs;
}

StatusOr<std::map<std::int64_t, StoredSourceFile>> ReadSourceFiles(const ReportReader& report) {
  std::map<std::int64_t, StoredSourceFile> files;
  if (!HasSourceResultTables(report)) return files;
  StatusOr<Statement> stmt =
      Statement::Prepare(report.db(), SelectSql(kSourceFilesTable) + " ORDER BY id");
  if (!stmt.ok()) return ReadError(report, "cannot read the source files of");
  constexpr int kId = ColumnIndex(kSourceFilesColumns, "id");
  int rc;
  while ((rc = sqlite3_step(stmt->get())) == SQLITE_ROW) {
    StoredSourceFile file;
    ReadRecord(stmt->get(), file, kSourceFilesRecordColumns, report);
    files[sqlite3_column_int64(stmt->get(), kId)] = std::move(file);
  }
  if (rc != SQLITE_DONE) return ReadError(report, "cannot read the source files of");
  return files;
}

}  // namespace gpuscope::store
