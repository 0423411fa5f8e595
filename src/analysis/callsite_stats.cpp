#include "analysis/callsite_stats.h"

#include <unordered_map>

#include "analysis/call_sites.h"
#include "analysis/stats_builders.h"
#include "store/stack_tables.h"

namespace gpuscope::analysis {
namespace {

// Frames shown in the Stack column from the call site outwards.
constexpr std::size_t kStackColumnFrames = 4;

}  // namespace

StatusOr<StatsTable> BuildKernelCallSiteSum(const Reports& reports) {
  SampleGroups groups;
  std::vector<std::string> stacks_of_groups;  // the Stack column, by group (first seen)
  for (const store::ReportReader* report : reports) {
    StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report);
    if (!stacks.ok()) return stacks.status();
    // Stack id -> group; launch correlation id -> stack id.
    std::unordered_map<std::uint32_t, std::size_t> group_of_stack;
    for (const auto& [id, frames] : *stacks) {
      const std::size_t group = groups.names().GroupFor(CallSiteLabel(frames));
      if (group >= stacks_of_groups.size()) stacks_of_groups.resize(group + 1);
      if (stacks_of_groups[group].empty()) {
        stacks_of_groups[group] = StackText(frames, kStackColumnFrames);
      }
      group_of_stack.emplace(id, group);
    }
    std::unordered_map<std::uint32_t, std::uint32_t> stack_of_call;
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachApiCall([&](const store::ApiCallRow& row) {
      if (row.record.stack_id != 0)
        stack_of_call.emplace(row.record.correlation_id, row.record.stack_id);
      return true;
    }));
    const std::size_t no_stack = groups.names().GroupFor(CallSiteLabel({}));
    GPUSCOPE_RETURN_IF_ERROR(report->ForEachKernel([&](const store::KernelRow& row) {
      const model::KernelRecord& kernel = row.record;
      if (!HasTimestamps(kernel.start, kernel.end)) return true;
      std::size_t group = no_stack;
      if (auto call = stack_of_call.find(kernel.correlation_id); call != stack_of_call.end()) {
        if (auto site = group_of_stack.find(call->second); site != group_of_stack.end()) {
          group = site->second;
        }
      }
      groups.Add(group, kernel.end - kernel.start);
      return true;
    }));
  }
  std::vector<GroupStats> rows;
  for (std::size_t group = 0; group < groups.size(); ++group) {
    if (groups.samples(group).empty()) continue;
    std::string stack = group < stacks_of_groups.size() ? stacks_of_groups[group] : "";
    rows.push_back({{groups.names().name(group), std::move(stack)},
                    ComputeSampleStats(groups.samples(group))});
  }
  return TimeTable("CUDA GPU Kernel Summary by Call Site", "cuda_gpu_kern_callsite_sum",
                   "CUDA kernel data", "Instances", {"Call Site", "Stack"}, std::move(rows));
}

}  // namespace gpuscope::analysis
