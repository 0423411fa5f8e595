#include "store/event_attributes.h"

#include <algorithm>
#include <string_view>

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

// The query of `table`'s attributes, ids bound to ?1 and ?2; empty when it has none.
std::string_view AttributesQuery(EventTable table) {
  switch (table) {
    case EventTable::kKernels:
      return "SELECT id, correlation_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
             "registers_per_thread, static_shared_memory, dynamic_shared_memory FROM kernels "
             "WHERE id BETWEEN ?1 AND ?2";
    case EventTable::kMemcpys:
      return "SELECT m.id, m.correlation_id, m.runtime_correlation_id, m.bytes, c.name "
             "FROM memcpys m LEFT JOIN copy_kinds c ON c.id = m.copy_kind "
             "WHERE m.id BETWEEN ?1 AND ?2";
    case EventTable::kMemsets:
      return "SELECT id, correlation_id, bytes FROM memsets WHERE id BETWEEN ?1 AND ?2";
    case EventTable::kApiCalls:
      return "SELECT id, correlation_id FROM api_calls WHERE id BETWEEN ?1 AND ?2";
    default:
      return {};
  }
}

}  // namespace

Status FillEventAttributes(const ReportReader& report, EventTable table,
                           std::unordered_map<std::uint32_t, EventAttributes>& attributes) {
  const std::string_view sql = AttributesQuery(table);
  if (attributes.empty() || sql.empty()) return {};
  std::uint32_t low = UINT32_MAX, high = 0;
  for (const auto& [id, unused] : attributes) {
    low = std::min(low, id);
    high = std::max(high, id);
  }
  const QueryParam params[] = {std::int64_t{low}, std::int64_t{high}};
  return StepRows(report.db(), sql, params, "event details", [&](sqlite3_stmt* row) {
    auto found = attributes.find(ColumnU32(row, 0));
    if (found == attributes.end()) return true;
    EventAttributes& a = found->second;
    a.correlation_id = ColumnU32(row, 1);
    switch (table) {
      case EventTable::kKernels:
        a.launch = ColumnLaunchConfig(row, 2);
        break;
      case EventTable::kMemcpys:
        a.runtime_correlation_id = ColumnU32(row, 2);
        a.bytes = ColumnInt(row, 3);
        a.copy_kind = std::string(ColumnText(row, 4));
        break;
      case EventTable::kMemsets:
        a.bytes = ColumnInt(row, 2);
        break;
      default:
        break;
    }
    return true;
  });
}

}  // namespace gpuscope::store
