#include "store/correlation_ids.h"

#include <algorithm>
#include <string_view>

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

StatusOr<std::vector<std::uint32_t>> SortedIds(const ReportReader& report, std::string_view sql,
                                               std::string_view what) {
  std::vector<std::uint32_t> ids;
  GPUSCOPE_RETURN_IF_ERROR(StepRows(report.db(), sql, {}, what, [&](sqlite3_stmt* row) {
    ids.push_back(ColumnU32(row, 0));
    return true;
  }));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace

StatusOr<std::vector<std::uint32_t>> GpuCorrelationIds(const ReportReader& report) {
  return SortedIds(report,
                   "SELECT correlation_id FROM kernels UNION ALL SELECT CASE WHEN "
                   "runtime_correlation_id > 0 THEN runtime_correlation_id ELSE correlation_id "
                   "END FROM memcpys UNION ALL SELECT correlation_id FROM memsets",
                   "the GPU correlation ids");
}

StatusOr<std::vector<std::uint32_t>> ApiCorrelationIds(const ReportReader& report) {
  return SortedIds(report, "SELECT correlation_id FROM api_calls", "the API correlation ids");
}

}  // namespace gpuscope::store
