#include "analysis/diff/kernel_launches.h"

#include "analysis/metrics/profile_loader.h"
#include "analysis/nvtx_projection.h"
#include "store/profile_store.h"
#include "util/demangle.h"

namespace gpuscope::analysis::diff {
namespace {

KernelLaunches& GroupOf(std::map<KernelKey, KernelLaunches>& groups, MatchBy match,
                        std::string_view demangled, const LaunchConfig& config) {
  KernelKey key{std::string(demangled), std::nullopt};
  if (match == MatchBy::kNameAndConfig) key.config = config;
  auto [it, inserted] = groups.try_emplace(key);
  if (inserted) {
    it->second.key = std::move(key);
    it->second.function_name = FunctionBaseName(demangled);
    if (it->second.function_name.empty()) it->second.function_name = std::string(demangled);
  }
  it->second.configs.insert(config);
  return it->second;
}

}  // namespace

std::string_view MatchByName(MatchBy match) {
  return match == MatchBy::kName ? "name" : "name+config";
}

std::optional<MatchBy> ParseMatchBy(std::string_view text) {
  if (text == "name") return MatchBy::kName;
  if (text == "name+config") return MatchBy::kNameAndConfig;
  return std::nullopt;
}

StatusOr<ReportKernels> LoadReportKernels(const store::ReportReader& report, MatchBy match) {
  std::map<KernelKey, KernelLaunches> groups;
  Status scanned = report.ForEachKernel([&](const store::KernelRow& row) {
    const model::KernelRecord& r = row.record;
    LaunchConfig config{{r.grid_x, r.grid_y, r.grid_z}, {r.block_x, r.block_y, r.block_z}};
    KernelLaunches& group = GroupOf(groups, match, row.demangled_name, config);
    ++group.launches;
    if (r.start != 0 && r.end >= r.start) {
      group.traced_durations_ns.push_back(static_cast<double>(r.end - r.start));
    }
    return true;
  });
  if (!scanned.ok()) return scanned;

  StatusOr<std::vector<metrics::KernelProfile>> profiles = metrics::LoadKernelProfiles(report);
  if (!profiles.ok()) return profiles.status();
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

  ReportKernels result;
  if (!profiles->empty()) {
    StatusOr<std::map<std::int64_t, source::KernelSource>> sources =
        source::LoadKernelSources(report);
    if (!sources.ok()) result.source_problem = sources.status().message();
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
  return result;
}

}  // namespace gpuscope::analysis::diff
