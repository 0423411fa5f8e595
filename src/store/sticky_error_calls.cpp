#include "store/sticky_error_calls.h"

#include <string>

#include "model/sticky_errors.h"
#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

// "700,702,...": the codes are constants of ours, not input, so they go into the text.
std::string StickyCodeList() {
  std::string list;
  for (const model::StickyError& error : model::kStickyErrors) {
    if (!list.empty()) list += ',';
    list += std::to_string(error.code);
  }
  return list;
}

}  // namespace

StatusOr<std::optional<StickyErrorCalls>> FindStickyErrorCalls(const ReportReader& report) {
  std::optional<StickyErrorCalls> found;
  // One pass: the failing calls, the first by start (a call without a start, damaged, cannot
  // be placed in time and is never the first), and how many there are (the window count).
  GPUSCOPE_RETURN_IF_ERROR(StepRows(
      report.db(),
      "SELECT a.name_id, a.domain, a.return_value, a.start, a.thread_id, COUNT(*) OVER () "
      "FROM api_calls a WHERE a.return_value IN (" +
          StickyCodeList() + ") AND a.nested = 0 ORDER BY a.start IS NULL, a.start LIMIT 1",
      {}, "the calls that returned a sticky CUDA error", [&](sqlite3_stmt* row) {
        // Every failing call lacks a start: counted, but none can be named first.
        if (sqlite3_column_type(row, 3) != SQLITE_INTEGER) return false;
        StickyErrorCalls calls;
        calls.first_call = std::string(report.String(ColumnInt(row, 0)).value_or(""));
        calls.domain = ColumnInt(row, 1) == static_cast<int>(model::ApiDomain::kDriver)
                           ? model::ApiDomain::kDriver
                           : model::ApiDomain::kRuntime;
        calls.code = static_cast<std::int32_t>(ColumnInt(row, 2));
        calls.start = ColumnTime(row, 3, report.time_base()).value_or(0);
        calls.thread_id = ColumnU32(row, 4);
        calls.failed_calls = static_cast<std::uint64_t>(ColumnInt(row, 5));
        found = std::move(calls);
        return false;
      }));
  return found;
}

}  // namespace gpuscope::store
