#include "analysis/nvtx_projection.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analysis/activity_names.h"
#include "analysis/duration_stats.h"

namespace gpuscope::analysis {
namespace {

struct ProjectedRange {
  std::string label;       // "name", or "domain:name": what `gpuscope diff` names a range by
  std::string nsys_label;  // nsys's Range column (NsysRangeLabel): ":name" or "domain:name"
  bool push_pop = true;
  std::uint32_t pid = 0;
  std::uint32_t tid = 0;
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  std::uint64_t level = 0;     // enclosing ranges on the same thread
  std::uint64_t children = 0;  // directly enclosed ranges
  std::uint64_t gpu_ops = 0;
  model::Timestamp first_op_start = 0;
  model::Timestamp last_op_end = 0;
};

struct GpuOp {
  model::Timestamp start = 0;
  model::Timestamp end = 0;
  std::string_view kernel_name;  // empty: a copy or memset
};

// One thread's ranges in start order, and the longest of them: a range can only enclose a
// time t if it starts in [t - longest, t], which bounds the search.
struct ThreadRanges {
  std::vector<std::size_t> by_start;
  model::Timestamp longest = 0;
};

// Nesting level and direct children of each range, per thread, by containment.
void ComputeNesting(std::vector<ProjectedRange>& ranges,
                    std::unordered_map<std::uint32_t, ThreadRanges>& threads) {
  for (auto& [tid, thread] : threads) {
    std::sort(thread.by_start.begin(), thread.by_start.end(), [&](std::size_t a, std::size_t b) {
      if (ranges[a].start != ranges[b].start) return ranges[a].start < ranges[b].start;
      return ranges[a].end > ranges[b].end;  // the enclosing one first
    });
    std::vector<std::size_t> open;
    for (std::size_t index : thread.by_start) {
      ProjectedRange& range = ranges[index];
      // Start/end ranges may overlap without nesting: those are not parents.
      while (!open.empty() && ranges[open.back()].end < range.end) open.pop_back();
      range.level = open.size();
      if (!open.empty()) ++ranges[open.back()].children;
      open.push_back(index);
      thread.longest = std::max(thread.longest, range.end - range.start);
    }
  }
}

// Reads one report's ranges and calls `each(range index, op)` for every GPU operation
// launched inside a range (once per enclosing range).
StatusOr<std::vector<ProjectedRange>> Project(
    const store::ReportReader& report,
    const std::function<void(ProjectedRange&, const GpuOp&)>& each) {
  std::vector<ProjectedRange> ranges;
  std::unordered_map<std::uint32_t, ThreadRanges> threads;
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachNvtx([&](const model::NvtxRecord& record) {
    if (record.kind == model::NvtxKind::kMark || !HasTimestamps(record.start, record.end)) {
      return true;
    }
    ProjectedRange& range = ranges.emplace_back();
    NsysRangeLabel(record.domain, record.name, range.nsys_label);
    range.label = record.domain.empty() ? std::string(record.name) : range.nsys_label;
    range.push_pop = record.kind == model::NvtxKind::kPushPopRange;
    range.pid = record.process_id;
    range.tid = record.thread_id;
    range.start = record.start;
    range.end = record.end;
    threads[record.thread_id].by_start.push_back(ranges.size() - 1);
    return true;
  }));
  if (ranges.empty()) return ranges;
  ComputeNesting(ranges, threads);

  struct Launch {
    std::uint32_t tid;
    model::Timestamp start;
  };
  std::unordered_map<std::uint32_t, Launch> launches;  // correlation id -> API call
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachApiCall([&](const store::ApiCallRow& row) {
    if (row.record.correlation_id != 0) {
      launches[row.record.correlation_id] = {row.record.thread_id, row.record.start};
    }
    return true;
  }));

  auto project = [&](std::uint32_t correlation_id, const GpuOp& op) {
    if (!HasTimestamps(op.start, op.end)) return;
    auto launch = launches.find(correlation_id);
    if (launch == launches.end()) return;
    auto thread = threads.find(launch->second.tid);
    if (thread == threads.end()) return;
    model::Timestamp t = launch->second.start;
    const std::vector<std::size_t>& order = thread->second.by_start;
    auto after = std::upper_bound(
        order.begin(), order.end(), t,
        [&](model::Timestamp time, std::size_t index) { return time < ranges[index].start; });
    for (auto it = after; it != order.begin();) {
      ProjectedRange& range = ranges[*--it];
      if (range.start + thread->second.longest < t) break;
      if (range.end < t) continue;
      if (range.gpu_ops == 0 || op.start < range.first_op_start) range.first_op_start = op.start;
      range.last_op_end = std::max(range.last_op_end, op.end);
      ++range.gpu_ops;
      each(range, op);
    }
  };
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachKernel([&](const store::KernelRow& row) {
    project(row.record.correlation_id, {row.record.start, row.record.end, row.demangled_name});
    return true;
  }));
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachMemcpy([&](const model::MemcpyRecord& record) {
    project(record.correlation_id, {record.start, record.end, {}});
    return true;
  }));
  GPUSCOPE_RETURN_IF_ERROR(report.ForEachMemset([&](const model::MemsetRecord& record) {
    project(record.correlation_id, {record.start, record.end, {}});
    return true;
  }));
  return ranges;
}

const char* StyleName(bool push_pop) { return push_pop ? "PushPop" : "StartEnd"; }

void AppendStats(std::vector<StatsCell>& row, const SampleStats& s) {
  row.push_back(DecimalCell(s.mean));
  row.push_back(DecimalCell(s.median));
  row.push_back(IntegerCell(s.min));
  row.push_back(IntegerCell(s.max));
  row.push_back(DecimalCell(s.stddev));
}

std::vector<StatsColumn> StatsColumns(const std::string& prefix) {
  return {{prefix + "Avg (ns)", ColumnKind::kDecimal1},
          {prefix + "Med (ns)", ColumnKind::kDecimal1},
          {prefix + "Min (ns)", ColumnKind::kInteger},
          {prefix + "Max (ns)", ColumnKind::kInteger},
          {prefix + "StdDev (ns)", ColumnKind::kDecimal1}};
}

}  // namespace

StatusOr<StatsTable> BuildNvtxKernelSum(const Reports& reports) {
  // range label, style, pid, tid, kernel name
  using Key = std::tuple<std::string, bool, std::uint32_t, std::uint32_t, std::string>;
  struct Group {
    std::set<const ProjectedRange*> instances;  // of the current report
    std::uint64_t range_instances = 0;
    std::vector<std::uint64_t> durations;
  };
  std::map<Key, Group> groups;
  for (const store::ReportReader* report : reports) {
    StatusOr<std::vector<ProjectedRange>> ranges =
        Project(*report, [&](ProjectedRange& range, const GpuOp& op) {
          if (op.kernel_name.empty()) return;
          Group& group = groups[Key{range.nsys_label, range.push_pop, range.pid, range.tid,
                                    std::string(op.kernel_name)}];
          group.instances.insert(&range);
          group.durations.push_back(op.end - op.start);
        });
    if (!ranges.ok()) return ranges.status();
    for (auto& [key, group] : groups) {
      group.range_instances += group.instances.size();
      group.instances.clear();  // the pointers die with this report's ranges
    }
  }
  StatsTable table{
      "NVTX Range Kernel Summary", "nvtx_kern_sum", "NVTX ranges launching kernels", {}, {}};
  table.columns = {{"NVTX Range", ColumnKind::kText},
                   {"Style", ColumnKind::kText},
                   {"PID", ColumnKind::kInteger},
                   {"TID", ColumnKind::kInteger},
                   {"NVTX Inst", ColumnKind::kInteger},
                   {"Kern Inst", ColumnKind::kInteger},
                   {"Total Time (ns)", ColumnKind::kInteger}};
  for (StatsColumn& column : StatsColumns("")) table.columns.push_back(std::move(column));
  table.columns.push_back({"Kernel Name", ColumnKind::kText});

  struct Row {
    const Key* key;
    std::uint64_t range_instances;
    SampleStats stats;
  };
  std::vector<Row> rows;
  for (auto& [key, group] : groups) {
    rows.push_back({&key, group.range_instances, ComputeSampleStats(group.durations)});
  }
  // Grouped by range, the range's kernels by total time (nsys's order).
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    if (std::get<0>(*a.key) != std::get<0>(*b.key))
      return std::get<0>(*a.key) < std::get<0>(*b.key);
    return a.stats.total > b.stats.total;
  });
  for (const Row& r : rows) {
    const auto& [label, push_pop, pid, tid, kernel] = *r.key;
    std::vector<StatsCell> row = {
        TextCell(label),           TextCell(StyleName(push_pop)),  IntegerCell(pid),
        IntegerCell(tid),          IntegerCell(r.range_instances), IntegerCell(r.stats.count),
        IntegerCell(r.stats.total)};
    AppendStats(row, r.stats);
    row.push_back(TextCell(kernel));
    table.rows.push_back(std::move(row));
  }
  return table;
}

StatusOr<StatsTable> BuildNvtxGpuProjectionSum(const Reports& reports) {
  struct Group {
    std::vector<std::uint64_t> projected;
    std::uint64_t range_time = 0;
    std::uint64_t gpu_ops = 0;
    std::uint64_t levels = 0;
    std::uint64_t children = 0;
  };
  std::map<std::pair<std::string, bool>, Group> groups;
  for (const store::ReportReader* report : reports) {
    StatusOr<std::vector<ProjectedRange>> ranges =
        Project(*report, [](ProjectedRange&, const GpuOp&) {});
    if (!ranges.ok()) return ranges.status();
    for (const ProjectedRange& range : *ranges) {
      if (range.gpu_ops == 0) continue;
      Group& group = groups[{range.nsys_label, range.push_pop}];
      group.projected.push_back(range.last_op_end - range.first_op_start);
      group.range_time += range.end - range.start;
      group.gpu_ops += range.gpu_ops;
      group.levels += range.level;
      group.children += range.children;
    }
  }
  StatsTable table{
      "NVTX GPU Projection Summary", "nvtx_gpu_proj_sum", "NVTX ranges launching GPU work", {}, {}};
  table.columns = {{"Range", ColumnKind::kText},
                   {"Style", ColumnKind::kText},
                   {"Total Proj Time (ns)", ColumnKind::kInteger},
                   {"Total Range Time (ns)", ColumnKind::kInteger},
                   {"Range Instances", ColumnKind::kInteger}};
  for (StatsColumn& column : StatsColumns("Proj ")) table.columns.push_back(std::move(column));
  table.columns.push_back({"Total GPU Ops", ColumnKind::kInteger});
  table.columns.push_back({"Avg GPU Ops", ColumnKind::kDecimal1});
  table.columns.push_back({"Avg Range Lvl", ColumnKind::kDecimal1});
  table.columns.push_back({"Avg Num Child", ColumnKind::kDecimal1});

  struct Row {
    const std::pair<std::string, bool>* key;
    const Group* group;
    SampleStats stats;
  };
  std::vector<Row> rows;
  for (auto& [key, group] : groups)
    rows.push_back({&key, &group, ComputeSampleStats(group.projected)});
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row& a, const Row& b) { return a.stats.total > b.stats.total; });
  for (const Row& r : rows) {
    auto instances = static_cast<double>(r.stats.count);
    std::vector<StatsCell> row = {TextCell(r.key->first), TextCell(StyleName(r.key->second)),
                                  IntegerCell(r.stats.total), IntegerCell(r.group->range_time),
                                  IntegerCell(r.stats.count)};
    AppendStats(row, r.stats);
    row.push_back(IntegerCell(r.group->gpu_ops));
    row.push_back(DecimalCell(static_cast<double>(r.group->gpu_ops) / instances));
    row.push_back(DecimalCell(static_cast<double>(r.group->levels) / instances));
    row.push_back(DecimalCell(static_cast<double>(r.group->children) / instances));
    table.rows.push_back(std::move(row));
  }
  return table;
}

StatusOr<std::map<std::string, std::vector<double>>> ProjectedGpuTimeByRange(
    const store::ReportReader& report) {
  StatusOr<std::vector<ProjectedRange>> ranges =
      Project(report, [](ProjectedRange&, const GpuOp&) {});
  if (!ranges.ok()) return ranges.status();
  std::map<std::string, std::vector<double>> projected;
  for (const ProjectedRange& range : *ranges) {
    if (range.gpu_ops == 0) continue;
    projected[range.label].push_back(static_cast<double>(range.last_op_end - range.first_op_start));
  }
  return projected;
}

}  // namespace gpuscope::analysis
