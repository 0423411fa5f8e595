#include "analysis/metrics/section_values.h"

#include <cstdint>

#include "analysis/occupancy_architectures.h"

namespace gpuscope::analysis::metrics {
namespace {

std::int64_t Product(const std::array<std::int32_t, 3>& dims) {
  return std::int64_t{dims[0]} * dims[1] * dims[2];
}

std::optional<double> Limit(const OccupancyResult& result, OccupancyResource resource) {
  const int limit = result.BlockLimit(resource);
  // A resource the kernel does not use sets no limit: there is no number to print.
  if (limit == kUnlimitedBlocks) return std::nullopt;
  return limit;
}

std::optional<double> LaunchValueOf(const KernelProfile& p, LaunchValue value) {
  const std::int64_t blocks = Product(p.grid);
  const std::int64_t threads_per_block = Product(p.block);
  const bool traced = blocks > 0 && threads_per_block > 0;
  switch (value) {
    case LaunchValue::kGridSize:
      if (traced) return static_cast<double>(blocks);
      break;
    case LaunchValue::kBlockSize:
      if (traced) return static_cast<double>(threads_per_block);
      break;
    case LaunchValue::kThreads:
      if (traced) return static_cast<double>(blocks * threads_per_block);
      break;
    case LaunchValue::kRegistersPerThread:
      if (traced) return p.registers_per_thread;
      break;
    case LaunchValue::kStaticSharedMemoryPerBlock:
      if (traced) return p.static_shared_memory;
      break;
    case LaunchValue::kDynamicSharedMemoryPerBlock:
      if (traced) return p.dynamic_shared_memory;
      break;
    case LaunchValue::kSharedMemoryConfigurationSize:
      if (traced && p.shared_memory_executed > 0) return p.shared_memory_executed;
      break;
    case LaunchValue::kClusterSize:
      if (!traced) break;
      if (p.cluster[0] == 0) return 0.0;
      return static_cast<double>(std::int64_t{p.cluster[0]} * p.cluster[1] * p.cluster[2]);
    case LaunchValue::kSmCount:
      if (p.device.num_sms > 0) return p.device.num_sms;
      break;
    case LaunchValue::kDriverSharedMemoryPerBlock: {
      auto arch = FindArchitecture(static_cast<int>(p.device.compute_major),
                                   static_cast<int>(p.device.compute_minor));
      if (traced && arch.ok()) return arch->reserved_shared_memory_per_block;
      break;
    }
    default:
      break;
  }
  return std::nullopt;
}

std::optional<double> OccupancyValueOf(const KernelProfile& p,
                                       const StatusOr<OccupancyResult>& occupancy,
                                       LaunchValue value) {
  if (!occupancy.ok()) return std::nullopt;
  const OccupancyResult& r = occupancy.value();
  switch (value) {
    case LaunchValue::kTheoreticalOccupancy:
      return r.occupancy_percent;
    case LaunchValue::kTheoreticalActiveWarps:
      return r.active_warps_per_sm;
    case LaunchValue::kBlockLimitRegisters:
      return Limit(r, OccupancyResource::kRegisters);
    case LaunchValue::kBlockLimitSharedMem:
      return Limit(r, OccupancyResource::kSharedMemory);
    case LaunchValue::kBlockLimitWarps:
      return Limit(r, OccupancyResource::kWarps);
    case LaunchValue::kBlockLimitSm:
      return Limit(r, OccupancyResource::kBlocks);
    case LaunchValue::kBlockLimitBarriers:
      return Limit(r, OccupancyResource::kBarriers);
    case LaunchValue::kWavesPerSm: {
      const double per_wave = double{1} * r.blocks_per_sm * p.device.num_sms;
      if (per_wave <= 0) return std::nullopt;
      return static_cast<double>(Product(p.grid)) / per_wave;
    }
    default:
      return std::nullopt;
  }
}

std::optional<double> FormulaValue(const KernelProfile& p, const SectionEntry& entry) {
  std::vector<double> inputs;
  inputs.reserve(entry.metrics.size());
  for (const std::string& name : entry.metrics) {
    const auto it = p.metrics.find(name);
    if (it == p.metrics.end()) return std::nullopt;
    inputs.push_back(it->second);
  }
  if (entry.formula == nullptr) return std::nullopt;
  return entry.formula(inputs);
}

std::optional<double> MetricValue(const KernelProfile& p, const SectionEntry& entry) {
  if (entry.metrics.empty()) return std::nullopt;
  const auto it = p.metrics.find(entry.metrics.front());
  if (it == p.metrics.end()) return std::nullopt;
  return it->second;
}

}  // namespace

OccupancyInput OccupancyInputFor(const KernelProfile& profile, bool with_carveout) {
  return OccupancyInputForLaunch(static_cast<int>(Product(profile.block)),
                                 static_cast<int>(profile.registers_per_thread),
                                 profile.static_shared_memory, profile.dynamic_shared_memory,
                                 with_carveout ? profile.shared_memory_executed : 0);
}

StatusOr<OccupancyResult> TheoreticalOccupancy(const KernelProfile& profile) {
  if (Product(profile.grid) <= 0 || Product(profile.block) <= 0) {
    return Status::Error("the launch of '" + profile.function_name +
                         "' was not traced: no launch configuration");
  }
  auto arch = FindArchitecture(static_cast<int>(profile.device.compute_major),
                               static_cast<int>(profile.device.compute_minor));
  if (!arch.ok()) return arch.status();
  auto result = ComputeOccupancy(arch.value(), OccupancyInputFor(profile, /*with_carveout=*/true));
  // A recorded carveout the calculator does not know (a newer driver's step) should not
  // cost the whole section: fall back to the carveout derived from the preference.
  if (!result.ok() && profile.shared_memory_executed > 0) {
    result = ComputeOccupancy(arch.value(), OccupancyInputFor(profile, /*with_carveout=*/false));
  }
  // A recorded carveout too small for even one block cannot be what the kernel ran with: CUPTI
  // reported 32 KB for a kernel of 32 KB static shared memory (+1 KB reserved) that ran 6
  // blocks per SM on the H200 (Nsight Compute: shared-memory limit 6, 75%). The driver then
  // takes the carveout from the preference (the full 228 KB by default), as here.
  if (result.ok() && profile.shared_memory_executed > 0 &&
      result->BlockLimit(OccupancyResource::kSharedMemory) == 0) {
    auto preferred =
        ComputeOccupancy(arch.value(), OccupancyInputFor(profile, /*with_carveout=*/false));
    if (preferred.ok()) result = preferred;
  }
  return result;
}

std::string FormatDim3(const std::array<std::int32_t, 3>& dims) {
  std::string text = "(";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text.append(", ");
    text.append(std::to_string(dims[i]));
  }
  text.append(")");
  return text;
}

std::vector<MetricRow> EvaluateSections(const KernelProfile& profile,
                                        const std::vector<const Section*>& sections) {
  const StatusOr<OccupancyResult> occupancy = TheoreticalOccupancy(profile);
  std::vector<MetricRow> rows;
  for (const Section* section : sections) {
    for (const SectionEntry& entry : section->entries) {
      MetricRow row;
      row.section = section->display_name;
      row.table = entry.table;
      row.label = entry.label;
      row.metric_id = entry.MetricId();
      row.entry = &entry;
      switch (entry.source) {
        case ValueSource::kMetric:
          row.value = MetricValue(profile, entry);
          break;
        case ValueSource::kFormula:
          row.value = FormulaValue(profile, entry);
          break;
        case ValueSource::kLaunch:
          row.value = LaunchValueOf(profile, entry.launch_value);
          break;
        case ValueSource::kOccupancy:
          row.value = OccupancyValueOf(profile, occupancy, entry.launch_value);
          break;
      }
      // An optional metric the chip lacks is left out, as ncu's filters leave it out.
      if (entry.optional && !row.value.has_value()) continue;
      row.scaled = ScaleValue(entry.unit_kind, entry.unit, row.value.value_or(0));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace gpuscope::analysis::metrics
