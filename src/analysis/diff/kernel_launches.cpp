#include "analysis/diff/kernel_launches.h"

#include <optional>
#include <unordered_map>

#include "analysis/call_sites.h"
#include "analysis/collection_warnings.h"
#include "analysis/metrics/profile_loader.h"
#include "analysis/nvtx_projection.h"
#include "analysis/value_range.h"
#include "store/profile_store.h"
#include "store/stack_tables.h"
#include "util/demangle.h"

namespace gpuscope::analysis::diff {
namespace {

KernelLaunches& GroupOf(std::map<KernelKey, KernelLaunches>& groups, MatchBy match,
                        std::string_view demangled, const LaunchConfig& config,
                        const std::string& call_site = {}) {
  KernelKey key{std::string(demangled), std::nullopt, call_site};
  if (match == MatchBy::kNameAndConfig) key.config = config;
  auto [it, inserted] = groups.try_emplace(key);
  if (inserted) {
    it->second.key = std::move(key);
    it->second.function_name = FunctionBaseName(demangled);
    if (it->second.function_name.empty()) it->second.function_name = std::string(demangled);
    if (!call_site.empty()) it->second.function_name += " @ " + call_site;
  }
  it->second.configs.insert(config);
  return it->second;
}

// Launch correlation id -> the call site of its API call's stack.
StatusOr<std::unordered_map<std::uint32_t, std::string>> CallSitesByCorrelation(
    const store::ReportReader& report) {
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(report);
  if (!stacks.ok()) return stacks.status();
  std::unordered_map<std::uint32_t, std::string> sites;
  Status scanned = report.ForEachApiCall([&](const store::ApiCallRow& row) {
    if (auto stack = stacks->find(row.record.stack_id); stack != stacks->end()) {
      sites.emplace(row.record.correlation_id, CallSiteLabel(stack->second));
    }
    return true;
  });
  if (!scanned.ok()) return scanned;
  return sites;
}

}  // namespace

std::string_view MatchByName(MatchBy match) {
  switch (match) {
    case MatchBy::kName:
      return "name";
    case MatchBy::kNameAndConfig:
      return "name+config";
    case MatchBy::kNameAndCallSite:
      break;
  }
  return "name+callsite";
}

std::optional<MatchBy> ParseMatchBy(std::string_view text) {
  if (text == "name") return MatchBy::kName;
  if (text == "name+config") return MatchBy::kNameAndConfig;
  if (text == "name+callsite") return MatchBy::kNameAndCallSite;
  return std::nullopt;
}

StatusOr<ReportKernels> LoadReportKernels(const store::ReportReader& report, MatchBy match) {
  std::map<KernelKey, KernelLaunches> groups;
  const bool by_call_site = match == MatchBy::kNameAndCallSite;
  std::unordered_map<std::uint32_t, std::string> call_sites;
  if (by_call_site) {
    StatusOr<std::unordered_map<std::uint32_t, std::string>> sites = CallSitesByCorrelation(report);
    if (!sites.ok()) return sites.status();
    call_sites = std::move(*sites);
  }
  const std::string no_call_stack = CallSiteLabel({});
  Status scanned = report.ForEachKernel([&](const store::KernelRow& row) {
    const model::KernelRecord& r = row.record;
    LaunchConfig config{{r.grid_x, r.grid_y, r.grid_z}, {r.block_x, r.block_y, r.block_z}};
    std::string site;
    if (by_call_site) {
      auto found = call_sites.find(r.correlation_id);
      site = found != call_sites.end() ? found->second : no_call_stack;
    }
    KernelLaunches& group = GroupOf(groups, match, row.demangled_name, config, site);
    ++group.launches;
    if (r.start != 0 && r.end >= r.start) {
      group.traced_durations_ns.push_back(static_cast<double>(r.end - r.start));
    }
    return true;
  });
  if (!scanned.ok()) return scanned;

  StatusOr<std::vector<metrics::KernelProfile>> profiles = metrics::LoadKernelProfiles(report);
  if (!profiles.ok()) return profiles.status();
  if (by_call_site) profiles->clear();  // a profile does not name its launch's call
  ReportKernels result;
  if (std::optional<std::string> impossible = metrics::ImpossibleValueWarning(*profiles)) {
    result.warnings.push_back(std::move(*impossible));
  }
  for (const metrics::KernelProfile& profile : *profiles) {
    if (!profile.measured || profile.metrics.empty()) continue;
    KernelLaunches& group =
        GroupOf(groups, match, profile.demangled_name, LaunchConfig{profile.grid, profile.block});
    // A range of the program (app-range) matches the range of that name in the other report;
    // its name is the program's text, not a signature to shorten.
    if (profile.is_range) group.function_name = profile.demangled_name;
    ++group.profiled;
    for (const auto& [name, value] : profile.metrics) group.metrics[name].push_back(value);
  }

  if (!profiles->empty()) {
    ImpossibleValueCounts impossible;
    StatusOr<std::map<std::int64_t, source::KernelSource>> sources =
        source::LoadKernelSources(report, nullptr, &impossible);
    if (!sources.ok()) result.source_problem = sources.status().message();
    if (std::optional<std::string> warning =
            ImpossibleValueWarning(impossible, CheckedValues::kSourceCounters)) {
      result.warnings.push_back(std::move(*warning));
    }
    for (const metrics::KernelProfile& profile : *profiles) {
      if (!sources.ok()) break;
      auto found = sources->find(profile.id);
      if (found == sources->end() || found->second.instructions.empty()) continue;
      KernelLaunches& group =
          GroupOf(groups, match, profile.demangled_name, LaunchConfig{profile.grid, profile.block});
      if (!group.source) group.source = std::move(found->second);
    }
  }
  result.path = report.path();
  result.match = match;
  if (!profiles->empty()) {
    StatusOr<std::map<std::int64_t, std::vector<store::StoredMetric>>> stored =
        store::ReadKernelMetrics(report);
    if (!stored.ok()) return stored.status();
    for (const auto& [id, metrics] : *stored) {
      for (const store::StoredMetric& metric : metrics) result.units[metric.name] = metric.unit;
    }
  }
  for (auto& [key, group] : groups) result.kernels.push_back(std::move(group));
  StatusOr<std::map<std::string, std::vector<double>>> ranges = ProjectedGpuTimeByRange(report);
  if (!ranges.ok()) return ranges.status();
  result.nvtx_projected_ns = std::move(*ranges);
  // After every scan: the reader counts the rows it left out as it reads them.
  for (std::string& warning : SkippedRowWarnings(report)) {
    result.warnings.push_back(std::move(warning));
  }
  return result;
}

}  // namespace gpuscope::analysis::diff
