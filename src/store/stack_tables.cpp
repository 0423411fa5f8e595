#include "store/stack_tables.h"

#include <sqlite3.h>

#include "store/declared_sql.h"
#include "store/query_rows.h"
#include "store/record_decoder.h"
#include "store/report_update.h"
#include "store/schema.h"
#include "store/sqlite_util.h"
#include "store/stack_table_defs.h"

namespace gpuscope::store {
namespace {

bool HasStacks(const ReportReader& report) {
  return report.schema_version() >= kFirstSchemaWithStacks;
}

// The frames of every stack (stack_id NULL) or of one, in (stack, depth) order, each with its
// module's row (joined: the module's path names the frame's object).
Status ReadFrames(const ReportReader& report, std::optional<std::uint32_t> stack_id,
                  StoredStacks& stacks) {
  std::vector<QueryParam> params;
  if (stack_id.has_value()) params.emplace_back(std::int64_t{*stack_id});
  constexpr int kStackId = ColumnIndex(kStackFramesColumns, "stack_id");
  constexpr int kKind = ColumnIndex(kStackFramesColumns, "kind");
  constexpr int kModulePath = static_cast<int>(kStackFramesColumns.size()) +
                              ColumnIndex(kModulesColumns, "path");
  return StepRows(
      report.db(),
      "SELECT " + SelectList(kStackFramesColumns, "f") + ", " + SelectList(kModulesColumns, "m") +
          " FROM stack_frames f LEFT JOIN modules m ON m.id = f.module_id " +
          (stack_id.has_value() ? "WHERE f.stack_id = ?1 " : "") + "ORDER BY f.stack_id, f.depth",
      params, "the call stacks", [&](sqlite3_stmt* row) {
        StoredFrame frame;
        // Functions and files are names of the reader's strings (shortened once there).
        ReadRecord(row, frame, kStackFramesRecordColumns, report);
        frame.kind =
            ColumnInt(row, kKind) == 1 ? model::FrameKind::kPython : model::FrameKind::kNative;
        frame.module = report.ReportText(ColumnText(row, kModulePath));
        stacks[ColumnU32(row, kStackId)].push_back(std::move(frame));
        return true;
      });
}

}  // namespace

StatusOr<StoredStacks> ReadStacks(const ReportReader& report) {
  StoredStacks stacks;
  if (!HasStacks(report)) return stacks;
  GPUSCOPE_RETURN_IF_ERROR(ReadFrames(report, std::nullopt, stacks));
  return stacks;
}

StatusOr<std::vector<StoredFrame>> ReadStack(const ReportReader& report, std::uint32_t stack_id) {
  StoredStacks stacks;
  if (!HasStacks(report)) return std::vector<StoredFrame>();
  GPUSCOPE_RETURN_IF_ERROR(ReadFrames(report, stack_id, stacks));
  auto found = stacks.find(stack_id);
  return found == stacks.end() ? std::vector<StoredFrame>() : std::move(found->second);
}

StatusOr<UnsymbolizedFrames> ReadUnsymbolizedFrames(const ReportReader& report) {
  UnsymbolizedFrames frames;
  if (!HasStacks(report)) return frames;
  bool done = false;
  GPUSCOPE_RETURN_IF_ERROR(StepRows(report.db(),
                                    "SELECT value FROM meta WHERE key = 'stacks_symbolized'", {},
                                    "the symbolization mark", [&](sqlite3_stmt* row) {
                                      done = ColumnText(row, 0) == "1";
                                      return false;
                                    }));
  if (done) return frames;
  GPUSCOPE_RETURN_IF_ERROR(StepRows(report.db(), SelectSql(kModulesTable) + " ORDER BY id", {},
                                    "the modules", [&](sqlite3_stmt* row) {
                                      ReadRecord(row, frames.modules.emplace_back(),
                                                 kModulesRecordColumns, report);
                                      return true;
                                    }));
  GPUSCOPE_RETURN_IF_ERROR(
      StepRows(report.db(),
               "SELECT DISTINCT address FROM stack_frames WHERE kind = 0 AND address IS NOT NULL "
               "ORDER BY address",
               {}, "the native frames", [&](sqlite3_stmt* row) {
                 frames.addresses.push_back(static_cast<std::uint64_t>(ColumnInt(row, 0)));
                 return true;
               }));
  return frames;
}

Status WriteFrameSymbols(const std::string& path, const std::vector<FrameSymbol>& symbols) {
  const std::string context = "cannot store the call stacks' symbols in " + path;
  StatusOr<std::unique_ptr<ReportUpdate>> update = ReportUpdate::Begin(path, context);
  if (!update.ok()) return update.status();
  sqlite3* db = (*update)->db();
  auto fail = [&]() { return (*update)->Fail(context); };
  StatusOr<Statement> next_id =
      Statement::Prepare(db, "SELECT coalesce(max(id), 0) + 1 FROM strings");
  StatusOr<Statement> add_string =
      Statement::Prepare(db, "INSERT INTO strings(id, value, demangled) VALUES (?1, ?2, NULL)");
  StatusOr<Statement> set_symbol = Statement::Prepare(
      db,
      "UPDATE stack_frames SET module_id = ?2, function_id = ?3, file_id = ?4, line = ?5 "
      "WHERE kind = 0 AND address = ?1");
  if (!next_id.ok() || !add_string.ok() || !set_symbol.ok()) return fail();
  if (sqlite3_step(next_id->get()) != SQLITE_ROW) return fail();
  std::int64_t id = sqlite3_column_int64(next_id->get(), 0);
  // Names repeat across addresses (one function, many call sites): each is stored once.
  std::map<std::string, std::int64_t> ids;
  auto intern = [&](const std::string& text) -> std::optional<std::int64_t> {
    if (text.empty()) return std::nullopt;
    auto [it, inserted] = ids.emplace(text, id);
    if (!inserted) return it->second;
    sqlite3_stmt* s = add_string->get();
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, id);
    BindText(s, 2, text);
    if (sqlite3_step(s) != SQLITE_DONE) return std::nullopt;
    return id++;
  };
  auto bind = [](sqlite3_stmt* s, int index, std::optional<std::int64_t> value) {
    if (value.has_value()) {
      sqlite3_bind_int64(s, index, *value);
    } else {
      sqlite3_bind_null(s, index);
    }
  };
  for (const FrameSymbol& symbol : symbols) {
    sqlite3_stmt* s = set_symbol->get();
    sqlite3_reset(s);
    sqlite3_bind_int64(s, 1, static_cast<std::int64_t>(symbol.address));
    bind(s, 2, symbol.module_id);
    bind(s, 3, intern(symbol.function));
    bind(s, 4, intern(symbol.file));
    sqlite3_bind_int64(s, 5, symbol.line);
    if (sqlite3_step(s) != SQLITE_DONE) return fail();
  }
  if (sqlite3_exec(db, "INSERT OR REPLACE INTO meta(key, value) VALUES ('stacks_symbolized', '1')",
                   nullptr, nullptr, nullptr) != SQLITE_OK) {
    return fail();
  }
  return (*update)->Commit(context);
}

}  // namespace gpuscope::store
