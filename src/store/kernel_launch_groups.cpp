#include "store/kernel_launch_groups.h"

#include <string>
#include <vector>

#include "store/query_rows.h"

namespace gpuscope::store {

Status ForEachKernelLaunchGroup(const ReportReader& report, std::optional<std::string_view> name,
                                const std::function<void(const KernelLaunchGroup&)>& fn) {
  std::string sql =
      "SELECT name, mangled_name, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
      "registers_per_thread, static_shared_memory, dynamic_shared_memory, count(*), "
      "count(duration), sum(duration), min(duration), max(duration) FROM kernels_v";
  std::vector<QueryParam> params;
  if (name) {
    sql += " WHERE name = ?1";
    params.emplace_back(std::string(*name));
  }
  sql += " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 ORDER BY 1, 12 DESC";
  return StepRows(report.db(), sql, params, "kernel launches", [&](sqlite3_stmt* row) {
    KernelLaunchGroup group;
    group.name = ColumnText(row, 0);
    group.mangled_name = ColumnText(row, 1);
    group.launch = ColumnLaunchConfig(row, 2);
    group.launches = ColumnInt(row, 11);
    group.timed = ColumnInt(row, 12);
    // sum, min and max are NULL (read 0) when no launch has timestamps.
    group.total_duration = ColumnInt(row, 13);
    group.min_duration = ColumnInt(row, 14);
    group.max_duration = ColumnInt(row, 15);
    fn(group);
    return true;
  });
}

}  // namespace gpuscope::store
