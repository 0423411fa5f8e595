#include "analysis/metrics/profile_loader.h"

#include <cmath>
#include <unordered_map>

#include "util/demangle.h"

namespace gpuscope::analysis::metrics {
namespace {

ProfiledDevice DeviceOf(const store::ReportReader& report, std::uint32_t device_id) {
  ProfiledDevice device;
  device.id = device_id;
  for (const store::DeviceInfo& info : report.devices()) {
    if (info.record.id != device_id) continue;
    const model::DeviceRecord& r = info.record;
    device.name = info.name;
    device.compute_major = r.compute_major;
    device.compute_minor = r.compute_minor;
    device.num_sms = r.num_sms;
    device.max_warps_per_sm = r.max_warps_per_sm;
    device.max_blocks_per_sm = r.max_blocks_per_sm;
    device.max_registers_per_sm = r.max_registers_per_sm;
    device.max_shared_memory_per_sm = r.max_shared_memory_per_sm;
    device.max_shared_memory_per_block_optin = r.max_shared_memory_per_block_optin;
    device.global_memory_bandwidth_kbps = r.global_memory_bandwidth_kbps;
    device.l2_cache_bytes = r.l2_cache_bytes;
  }
  return device;
}

void CopyLaunch(const model::KernelRecord& r, KernelProfile& profile) {
  profile.grid = {r.grid_x, r.grid_y, r.grid_z};
  profile.block = {r.block_x, r.block_y, r.block_z};
  profile.cluster = {r.cluster_x, r.cluster_y, r.cluster_z};
  profile.registers_per_thread = r.registers_per_thread;
  profile.static_shared_memory = static_cast<std::uint32_t>(r.static_shared_memory);
  profile.dynamic_shared_memory = static_cast<std::uint32_t>(r.dynamic_shared_memory);
  profile.shared_memory_executed = r.shared_memory_executed;
  profile.local_memory_per_thread = r.local_memory_per_thread;
  if (r.start != 0 && r.end >= r.start) {
    profile.traced_duration_ns = static_cast<std::int64_t>(r.end - r.start);
  }
  if (profile.stream_id == 0) profile.stream_id = r.stream_id;
}

}  // namespace

void AssignMetrics(KernelProfile& profile, const std::vector<store::StoredMetric>& stored) {
  profile.metrics.clear();
  profile.impossible_values = {};
  for (const store::StoredMetric& metric : stored) {
    if (metric.not_a_number) {
      profile.impossible_values.Add(ImpossibleValue::kNotFinite);
      continue;
    }
    // NaN is CUPTI's "cannot be evaluated from this data" (stored as NULL), not damage.
    if (!metric.value || std::isnan(*metric.value)) continue;
    if (std::optional<ImpossibleValue> why = CheckMetricValue(*metric.value, metric.unit)) {
      profile.impossible_values.Add(*why);
      continue;
    }
    profile.metrics[metric.name] = *metric.value;
  }
}

std::optional<std::string> ImpossibleValueWarning(const std::vector<KernelProfile>& profiles) {
  ImpossibleValueCounts counts;
  for (const KernelProfile& profile : profiles) counts += profile.impossible_values;
  return analysis::ImpossibleValueWarning(counts);
}

StatusOr<std::vector<KernelProfile>> LoadKernelProfiles(const store::ReportReader& report) {
  StatusOr<std::vector<store::StoredProfile>> stored = store::ReadProfiledKernels(report);
  if (!stored.ok()) return stored.status();
  std::vector<KernelProfile> profiles;
  if (stored->empty()) return profiles;
  StatusOr<std::map<std::int64_t, std::vector<store::StoredMetric>>> metrics =
      store::ReadKernelMetrics(report);
  if (!metrics.ok()) return metrics.status();

  std::unordered_map<std::uint32_t, std::size_t> by_correlation;
  for (const store::StoredProfile& s : *stored) {
    KernelProfile p;
    p.id = s.id;
    p.profile_index = s.profile_index;
    p.invocation = s.invocation;
    p.pid = report.process().pid;
    p.mangled_name = s.mangled_name;
    p.demangled_name = s.demangled_name.empty() ? s.mangled_name : s.demangled_name;
    p.is_range = model::IsRangeResult(s.replay_mode);
    p.range_kernels = s.range_kernels;
    // A range's name is the program's text, not a C++ signature to shorten.
    p.function_name = p.is_range ? p.demangled_name : FunctionBaseName(p.demangled_name);
    p.context_id = s.context_id;
    p.stream_id = s.stream_id;
    p.device_id = s.device_id;
    p.device = DeviceOf(report, s.device_id);
    p.chip = s.chip;
    p.passes = s.passes;
    p.measured = s.outcome == model::ProfileOutcome::kMeasured && s.counter_data_size != 0;
    p.failure = s.message;
    if (auto found = metrics->find(s.id); found != metrics->end()) {
      AssignMetrics(p, found->second);
    }
    // A range has no launch of its own (and no launch configuration).
    if (!p.is_range) by_correlation[s.correlation_id] = profiles.size();
    profiles.push_back(std::move(p));
  }
  // The launch configuration comes from the kernel's trace record. A replayed kernel has
  // one record per launch (CUPTI does not trace its replay passes), matched by correlation.
  std::size_t unmatched = by_correlation.size();
  Status scanned = report.ForEachKernel([&](const store::KernelRow& row) {
    auto found = by_correlation.find(row.record.correlation_id);
    if (found == by_correlation.end()) return true;
    KernelProfile& profile = profiles[found->second];
    if (profile.mangled_name == row.record.mangled_name && profile.grid[0] == 0) {
      CopyLaunch(row.record, profile);
      --unmatched;
    }
    return unmatched != 0;
  });
  if (!scanned.ok()) return scanned;
  return profiles;
}

}  // namespace gpuscope::analysis::metrics
