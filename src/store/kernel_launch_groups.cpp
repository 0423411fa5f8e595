#include "store/kernel_launch_groups.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "store/query_rows.h"

namespace gpuscope::store {
namespace {

// What a group is told apart by: its names and its launch configuration.
using GroupKey = std::tuple<std::string_view, std::string_view, std::vector<std::int64_t>>;

GroupKey KeyOf(const KernelLaunchGroup& group) {
  const LaunchConfig& c = group.launch;
  return {group.name,
          group.mangled_name,
          {c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
           c.registers_per_thread, c.static_shared_memory, c.dynamic_shared_memory}};
}

// `from`'s launches added to `into` (two name ids of one text, or two unknown ids).
void Merge(KernelLaunchGroup& into, const KernelLaunchGroup& from) {
  if (from.timed > 0) {
    into.min_duration =
        into.timed > 0 ? std::min(into.min_duration, from.min_duration) : from.min_duration;
    into.max_duration =
        into.timed > 0 ? std::max(into.max_duration, from.max_duration) : from.max_duration;
  }
  into.launches += from.launches;
  into.timed += from.timed;
  into.total_duration += from.total_duration;
}

}  // namespace

Status ForEachKernelLaunchGroup(const ReportReader& report, std::optional<std::string_view> name,
                                const std::function<void(const KernelLaunchGroup&)>& fn) {
  // Grouped by name id, the names looked up in the reader (shortened once there): grouping by
  // the names themselves made SQLite sort a copy of a kernel's name per launch, gigabytes for
  // a report whose kernel is named by 10 MB. A kernel without a known name is named "".
  const std::string sql =
      "SELECT name_id, grid_x, grid_y, grid_z, block_x, block_y, block_z, "
      "registers_per_thread, static_shared_memory, dynamic_shared_memory, count(*), "
      "count(\"end\" - start), sum(\"end\" - start), min(\"end\" - start), max(\"end\" - start) "
      "FROM kernels GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10";
  std::map<GroupKey, KernelLaunchGroup> groups;
  GPUSCOPE_RETURN_IF_ERROR(
      StepRows(report.db(), sql, {}, "kernel launches", [&](sqlite3_stmt* row) {
        const std::int64_t name_id = ColumnInt(row, 0);
        KernelLaunchGroup group;
        group.name = report.DemangledString(name_id).value_or("");
        if (name && group.name != *name) return true;
        group.mangled_name = report.String(name_id).value_or("");
        group.launch = ColumnLaunchConfig(row, 1);
        group.launches = ColumnInt(row, 10);
        group.timed = ColumnInt(row, 11);
        // sum, min and max are NULL (read 0) when no launch has timestamps.
        group.total_duration = ColumnInt(row, 12);
        group.min_duration = ColumnInt(row, 13);
        group.max_duration = ColumnInt(row, 14);
        auto [found, inserted] = groups.try_emplace(KeyOf(group), group);
        if (!inserted) Merge(found->second, group);
        return true;
      }));
  // By name, then most launches first (the map's order breaks ties: stable across runs).
  std::vector<const KernelLaunchGroup*> ordered;
  ordered.reserve(groups.size());
  for (const auto& [key, group] : groups) ordered.push_back(&group);
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const KernelLaunchGroup* a, const KernelLaunchGroup* b) {
                     if (a->name != b->name) return a->name < b->name;
                     return a->launches > b->launches;
                   });
  for (const KernelLaunchGroup* group : ordered) fn(*group);
  return {};
}

}  // namespace gpuscope::store
