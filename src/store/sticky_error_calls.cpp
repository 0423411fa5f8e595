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
  const std::string failing =
      "FROM api_calls WHERE return_value IN (" + StickyCodeList() + ") AND nested = 0";
  std::optional<StickyErrorCalls> found;
  // A call without a start (damaged) cannot be placed in time: left out of the first.
  GPUSCOPE_RETURN_IF_ERROR(StepRows(
      report.db(),
      "SELECT s.value, a.domain, a.return_value, a.start, a.thread_id, "
      "(SELECT COUNT(*) " + failing + ") FROM (SELECT * " + failing +
          " AND start IS NOT NULL ORDER BY start LIMIT 1) a LEFT JOIN strings s ON s.id = a.name_id",
      {}, "the calls that returned a sticky CUDA error", [&](sqlite3_stmt* row) {
        StickyErrorCalls calls;
        calls.first_call = std::string(ColumnText(row, 0));
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
