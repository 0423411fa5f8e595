#include "analysis/summary_builder.h"

#include <algorithm>

#include "analysis/activity_names.h"

namespace gpuscope::analysis {

namespace {

void AddTo(std::vector<RunningStats>& groups, std::size_t group, std::uint64_t value) {
  if (group >= groups.size()) groups.resize(group + 1);
  groups[group].Add(value);
}

void SortByTotalTime(std::vector<SummaryRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const SummaryRow& a, const SummaryRow& b) {
    if (a.time.total != b.time.total) return a.time.total > b.time.total;
    return a.name < b.name;
  });
}

}  // namespace

void NvprofSummaryBuilder::BeginReport() {
  kernel_names_.BeginReport();
  api_names_.BeginReport();
}

void NvprofSummaryBuilder::AddKernel(const store::KernelRow& row) {
  const model::KernelRecord& kernel = row.record;
  if (!HasTimestamps(kernel.start, kernel.end)) {
    ++untimed_;
    return;
  }
  std::string_view name = demangle_ ? row.demangled_name : kernel.mangled_name;
  AddTo(kernels_, kernel_names_.GroupForId(row.name_id, name), kernel.end - kernel.start);
}

void NvprofSummaryBuilder::AddMemcpy(const model::MemcpyRecord& record) {
  if (!HasTimestamps(record.start, record.end)) {
    ++untimed_;
    return;
  }
  auto kind = static_cast<std::size_t>(record.copy_kind);
  // Kinds beyond the known ones are counted as unknown rather than dropped.
  if (kind >= copies_.size()) kind = static_cast<std::size_t>(model::CopyKind::kUnknown);
  copies_[kind].Add(record.end - record.start);
}

void NvprofSummaryBuilder::AddMemset(const model::MemsetRecord& record) {
  if (!HasTimestamps(record.start, record.end)) {
    ++untimed_;
    return;
  }
  memsets_.Add(record.end - record.start);
}

void NvprofSummaryBuilder::AddApiCall(const store::ApiCallRow& row) {
  if (!IsSummarizedApiCall(row)) return;
  const model::ApiCallRecord& call = row.record;
  // An API call always has host timestamps; a row without them is corrupt, not slow.
  if (!HasTimestamps(call.start, call.end)) {
    ++untimed_api_calls_;
    return;
  }
  AddTo(api_calls_, api_names_.GroupForId(row.name_id, call.name), call.end - call.start);
}

void NvprofSummaryBuilder::AddApiCallCount(const store::ApiCallCountRow& row) {
  const std::size_t group = api_names_.GroupForId(row.name_id, row.name);
  if (group >= api_calls_.size()) api_calls_.resize(group + 1);
  AddCounted(api_calls_[group], row.record);
}

NvprofSummary NvprofSummaryBuilder::Build() const {
  NvprofSummary summary;
  summary.untimed_gpu_activities = untimed_;
  summary.untimed_api_calls = untimed_api_calls_;
  for (std::size_t group = 0; group < kernels_.size(); ++group) {
    if (kernels_[group].count == 0) continue;
    summary.gpu_activities.push_back({kernel_names_.name(group), kernels_[group]});
  }
  for (std::size_t kind = 0; kind < copies_.size(); ++kind) {
    if (copies_[kind].count == 0) continue;
    std::string_view name = NvprofCopyName(static_cast<model::CopyKind>(kind));
    summary.gpu_activities.push_back({std::string(name), copies_[kind]});
  }
  if (memsets_.count > 0) summary.gpu_activities.push_back({std::string(kMemsetName), memsets_});
  for (std::size_t group = 0; group < api_calls_.size(); ++group) {
    if (api_calls_[group].count == 0) continue;
    summary.api_calls.push_back({api_names_.name(group), api_calls_[group]});
  }
  SortByTotalTime(summary.gpu_activities);
  SortByTotalTime(summary.api_calls);
  return summary;
}

}  // namespace gpuscope::analysis
