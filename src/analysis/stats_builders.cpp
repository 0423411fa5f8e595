#include "analysis/stats_builders.h"

#include <algorithm>
#include <cstdio>

#include "analysis/activity_names.h"
#include "analysis/duration_stats.h"
#include "analysis/summary_builder.h"

namespace gpuscope::analysis {

namespace {

void SortByTotal(std::vector<GroupStats>& groups) {
  std::sort(groups.begin(), groups.end(), [](const GroupStats& a, const GroupStats& b) {
    if (a.stats.total != b.stats.total) return a.stats.total > b.stats.total;
    return a.labels < b.labels;
  });
}

StatsCell Integer(std::uint64_t value) { return IntegerCell(value); }
StatsCell Decimal(double value) { return DecimalCell(value); }
StatsCell Text(const std::string& value) { return TextCell(value); }

}  // namespace

StatsTable TimeTable(std::string title, std::string name, std::string subject,
                     const std::string& count_header, const std::vector<std::string>& labels,
                     std::vector<GroupStats> groups) {
  StatsTable table{std::move(title), std::move(name), std::move(subject), {}, {}};
  table.columns = {{"Time (%)", ColumnKind::kPercent},   {"Total Time (ns)", ColumnKind::kInteger},
                   {count_header, ColumnKind::kInteger}, {"Avg (ns)", ColumnKind::kDecimal1},
                   {"Med (ns)", ColumnKind::kDecimal1},  {"Min (ns)", ColumnKind::kInteger},
                   {"Max (ns)", ColumnKind::kInteger},   {"StdDev (ns)", ColumnKind::kDecimal1}};
  for (const std::string& label : labels) table.columns.push_back({label, ColumnKind::kText});
  SortByTotal(groups);
  double total = 0;
  for (const GroupStats& group : groups) total += static_cast<double>(group.stats.total);
  for (const GroupStats& group : groups) {
    const SampleStats& s = group.stats;
    double percent = total > 0 ? 100.0 * static_cast<double>(s.total) / total : 0;
    std::vector<StatsCell> row = {Decimal(percent), Integer(s.total),  Integer(s.count),
                                  Decimal(s.mean),  Decimal(s.median), Integer(s.min),
                                  Integer(s.max),   Decimal(s.stddev)};
    if (!group.spread_known) row[4] = row[7] = EmptyCell();
    for (const std::string& label : group.labels) row.push_back(Text(label));
    table.rows.push_back(std::move(row));
  }
  return table;
}

namespace {

// Statistics of every non-empty group; `style`, when given, is a label column of its own
// in front of the name (nvtx_sum's Style).
std::vector<GroupStats> Summarize(SampleGroups& groups, const char* style = nullptr) {
  std::vector<GroupStats> result;
  for (std::size_t group = 0; group < groups.size(); ++group) {
    if (groups.samples(group).empty()) continue;
    std::vector<std::string> labels;
    if (style != nullptr) labels.push_back(style);
    labels.push_back(groups.names().name(group));
    result.push_back({std::move(labels), ComputeSampleStats(groups.samples(group))});
  }
  return result;
}

}  // namespace

void KernelSumBuilder::AddKernel(const store::KernelRow& row) {
  const model::KernelRecord& kernel = row.record;
  if (!HasTimestamps(kernel.start, kernel.end)) return;  // counted in the report's counters
  groups_.Add(groups_.names().GroupForId(row.name_id, row.demangled_name),
              kernel.end - kernel.start);
}

StatsTable KernelSumBuilder::Build() {
  return TimeTable("CUDA GPU Kernel Summary", "cuda_gpu_kern_sum", "CUDA kernel data", "Instances",
                   {"Name"}, Summarize(groups_));
}

namespace {

constexpr char kLabelSeparator = '\x1f';  // no kernel name or dimension holds it

// nsys's GridXYZ and BlockXYZ: "%4d %4d %4d".
void AppendDim3(std::string& out, std::int32_t x, std::int32_t y, std::int32_t z) {
  char text[48];
  std::snprintf(text, sizeof text, "%4d %4d %4d", x, y, z);
  out += text;
}

}  // namespace

void KernelGridBlockSumBuilder::AddKernel(const store::KernelRow& row) {
  const model::KernelRecord& kernel = row.record;
  if (!HasTimestamps(kernel.start, kernel.end)) return;
  key_.clear();
  AppendDim3(key_, kernel.grid_x, kernel.grid_y, kernel.grid_z);
  key_ += kLabelSeparator;
  AppendDim3(key_, kernel.block_x, kernel.block_y, kernel.block_z);
  key_ += kLabelSeparator;
  key_ += row.demangled_name;
  groups_.Add(groups_.names().GroupFor(key_), kernel.end - kernel.start);
}

StatsTable KernelGridBlockSumBuilder::Build() {
  std::vector<GroupStats> groups = Summarize(groups_);
  for (GroupStats& group : groups) {
    const std::string key = group.labels[0];
    std::size_t first = key.find(kLabelSeparator);
    std::size_t second = key.find(kLabelSeparator, first + 1);
    group.labels = {key.substr(0, first), key.substr(first + 1, second - first - 1),
                    key.substr(second + 1)};
  }
  return TimeTable("CUDA GPU Kernel/Grid/Block Summary", "cuda_gpu_kern_gb_sum", "CUDA kernel data",
                   "Instances", {"GridXYZ", "BlockXYZ", "Name"}, std::move(groups));
}

void ApiSumBuilder::AddApiCall(const store::ApiCallRow& row) {
  if (!IsSummarizedApiCall(row) || !HasTimestamps(row.record.start, row.record.end)) return;
  groups_.Add(groups_.names().GroupForId(row.name_id, row.record.name),
              row.record.end - row.record.start);
}

void ApiSumBuilder::AddApiCallCount(const store::ApiCallCountRow& row) {
  const std::size_t group = groups_.names().GroupForId(row.name_id, row.name);
  if (group >= counted_.size()) counted_.resize(group + 1);
  AddCounted(counted_[group], row.record);
}

StatsTable ApiSumBuilder::Build() {
  // The recorded calls' statistics, with the counted calls of the same names added in.
  std::vector<GroupStats> groups;
  const std::size_t names = std::max(groups_.size(), counted_.size());
  for (std::size_t group = 0; group < names; ++group) {
    const bool sampled = group < groups_.size() && !groups_.samples(group).empty();
    const bool counted = group < counted_.size() && counted_[group].count > 0;
    if (!sampled && !counted) continue;
    SampleStats stats;
    if (sampled) stats = ComputeSampleStats(groups_.samples(group));
    if (counted) {
      const RunningStats& more = counted_[group];
      stats.min = sampled ? std::min(stats.min, more.min) : more.min;
      stats.max = std::max(stats.max, more.max);
      stats.count += more.count;
      stats.total += more.total;
      stats.mean = static_cast<double>(stats.total) / static_cast<double>(stats.count);
    }
    groups.push_back({{groups_.names().name(group)}, stats, /*spread_known=*/!counted});
  }
  return TimeTable("CUDA API Summary", "cuda_api_sum", "CUDA API data", "Num Calls", {"Name"},
                   std::move(groups));
}

void MemOpsBuilder::AddMemcpy(const model::MemcpyRecord& record) {
  if (!HasTimestamps(record.start, record.end)) return;
  auto slot = static_cast<std::size_t>(record.copy_kind);
  if (slot >= kMemsetSlot) slot = static_cast<std::size_t>(model::CopyKind::kUnknown);
  durations_[slot].push_back(record.end - record.start);
  sizes_[slot].push_back(record.bytes);
}

void MemOpsBuilder::AddMemset(const model::MemsetRecord& record) {
  if (!HasTimestamps(record.start, record.end)) return;
  durations_[kMemsetSlot].push_back(record.end - record.start);
  sizes_[kMemsetSlot].push_back(record.bytes);
}

std::string MemOpsBuilder::SlotName(std::size_t slot) {
  if (slot == kMemsetSlot) return std::string(kMemsetName);
  return std::string(NsysCopyName(static_cast<model::CopyKind>(slot)));
}

StatsTable MemOpsBuilder::BuildTimeTable() {
  std::vector<GroupStats> groups;
  for (std::size_t slot = 0; slot < durations_.size(); ++slot) {
    if (durations_[slot].empty()) continue;
    groups.push_back({{SlotName(slot)}, ComputeSampleStats(durations_[slot])});
  }
  return TimeTable("CUDA GPU MemOps Summary (by Time)", "cuda_gpu_mem_time_sum",
                   "GPU memory operation data", "Count", {"Operation"}, std::move(groups));
}

StatsTable MemOpsBuilder::BuildSizeTable() {
  std::vector<GroupStats> groups;
  for (std::size_t slot = 0; slot < sizes_.size(); ++slot) {
    if (sizes_[slot].empty()) continue;
    groups.push_back({{SlotName(slot)}, ComputeSampleStats(sizes_[slot])});
  }
  SortByTotal(groups);
  StatsTable table{"CUDA GPU MemOps Summary (by Size)",
                   "cuda_gpu_mem_size_sum",
                   "GPU memory operation data",
                   {},
                   {}};
  table.columns = {{"Total (MB)", ColumnKind::kMegabytes},  {"Count", ColumnKind::kInteger},
                   {"Avg (MB)", ColumnKind::kMegabytes},    {"Med (MB)", ColumnKind::kMegabytes},
                   {"Min (MB)", ColumnKind::kMegabytes},    {"Max (MB)", ColumnKind::kMegabytes},
                   {"StdDev (MB)", ColumnKind::kMegabytes}, {"Operation", ColumnKind::kText}};
  constexpr double kBytesPerMegabyte = 1e6;  // nsys's MB
  for (const GroupStats& group : groups) {
    const SampleStats& s = group.stats;
    table.rows.push_back({Decimal(static_cast<double>(s.total) / kBytesPerMegabyte),
                          Integer(s.count), Decimal(s.mean / kBytesPerMegabyte),
                          Decimal(s.median / kBytesPerMegabyte),
                          Decimal(static_cast<double>(s.min) / kBytesPerMegabyte),
                          Decimal(static_cast<double>(s.max) / kBytesPerMegabyte),
                          Decimal(s.stddev / kBytesPerMegabyte), Text(group.labels[0])});
  }
  return table;
}

void NvtxSumBuilder::AddNvtx(const model::NvtxRecord& record) {
  if (record.kind == model::NvtxKind::kMark) return;
  if (!HasTimestamps(record.start, record.end)) return;  // never ended: counted by the report
  SampleGroups& groups = record.kind == model::NvtxKind::kPushPopRange ? push_pop_ : start_end_;
  groups.Add(groups.names().GroupFor(NsysRangeLabel(record.domain, record.name, key_)),
             record.end - record.start);
}

StatsTable NvtxSumBuilder::Build() {
  std::vector<GroupStats> groups = Summarize(push_pop_, "PushPop");
  std::vector<GroupStats> start_end = Summarize(start_end_, "StartEnd");
  groups.insert(groups.end(), start_end.begin(), start_end.end());
  return TimeTable("NVTX Range Summary", "nvtx_sum", "NVTX range data", "Instances",
                   {"Style", "Range"}, std::move(groups));
}

}  // namespace gpuscope::analysis
