#include "analysis/trace_rules/run_trace_rules.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>

#include "analysis/gpu_metric_samples.h"
#include "analysis/trace_rules/gpu_activity_stream.h"
#include "analysis/trace_rules/trace_rule.h"
#include "store/gpu_metric_tables.h"
#include "store/profile_store.h"
#include "util/gpu_metric_sets.h"

namespace gpuscope::analysis::trace_rules {

std::vector<std::unique_ptr<TraceRule>> MakeAllTraceRules() {
  std::vector<std::unique_ptr<TraceRule>> rules;
  rules.push_back(MakePageableCopiesRule());
  rules.push_back(MakeSynchronousTransfersRule());
  rules.push_back(MakeIdleGapsRule());
  rules.push_back(MakeLaunchBoundKernelsRule());
  rules.push_back(MakeSerializedTransfersRule());
  rules.push_back(MakeAllocationInLoopRule());
  rules.push_back(MakeGpuMetricStretchesRule());
  return rules;
}

namespace {

void Extend(RunExtent& run, model::Timestamp start, model::Timestamp end) {
  if (start == 0 || end < start) return;  // untimed rows say nothing about the run's extent
  if (run.start == 0 || start < run.start) run.start = start;
  run.end = std::max(run.end, end);
}

// The GPU metric samples, before the activities (rules keep only stretches of them).
Status FeedGpuMetricSamples(const store::ReportReader& reader,
                            std::vector<std::unique_ptr<TraceRule>>& rules,
                            ImpossibleValueCounts& impossible) {
  StatusOr<std::vector<store::StoredGpuMetric>> metrics = store::ReadGpuMetrics(reader);
  if (!metrics.ok()) return metrics.status();
  if (metrics->empty()) return Status();
  struct Roles {
    std::optional<std::size_t> sm_active, dram_read, dram_write;
    std::optional<double> dram_peak;
  };
  std::map<std::uint32_t, Roles> roles;
  for (const store::StoredGpuMetric& metric : *metrics) {
    Roles& device = roles[metric.device_id];
    switch (static_cast<GpuMetricRole>(metric.role)) {
      case GpuMetricRole::kSmActive:
        device.sm_active = metric.index;
        break;
      case GpuMetricRole::kDramRead:
        device.dram_read = metric.index;
        break;
      case GpuMetricRole::kDramWrite:
        device.dram_write = metric.index;
        break;
      default:
        break;
    }
  }
  for (const store::DeviceInfo& device : reader.devices()) {
    if (device.record.global_memory_bandwidth_kbps != 0) {
      roles[device.record.id].dram_peak =
          static_cast<double>(device.record.global_memory_bandwidth_kbps) * 1000.0;
    }
  }
  auto value = [](const store::StoredGpuMetricSample& sample, std::optional<std::size_t> index)
      -> std::optional<double> {
    if (!index || *index >= sample.values.size() || std::isnan(sample.values[*index])) {
      return std::nullopt;
    }
    return sample.values[*index];
  };
  return ForEachPossibleGpuMetricSample(
      reader, *metrics,
      [&](const store::StoredGpuMetricSample& sample) {
        const Roles& device = roles[sample.device_id];
        GpuMetricPoint point;
        point.device_id = sample.device_id;
        point.start = sample.start;
        point.end = sample.end;
        point.sm_active_pct = value(sample, device.sm_active);
        std::optional<double> read = value(sample, device.dram_read);
        std::optional<double> write = value(sample, device.dram_write);
        if (read || write) point.dram_bytes_per_second = read.value_or(0) + write.value_or(0);
        point.dram_peak_bytes_per_second = device.dram_peak;
        for (auto& rule : rules) rule->OnGpuMetricSample(point);
        return true;
      },
      impossible);
}

}  // namespace

StatusOr<std::vector<Finding>> RunTraceRules(const store::ReportReader& reader,
                                             ImpossibleValueCounts* impossible) {
  std::vector<std::unique_ptr<TraceRule>> rules = MakeAllTraceRules();
  RunExtent run;
  // One small row per profiled launch (the counter data stays in the file).
  StatusOr<std::vector<store::StoredProfile>> profiled = store::ReadProfiledKernels(reader);
  if (!profiled.ok()) return profiled.status();
  run.kernel_replay = !profiled->empty();
  for (const store::StoredProfile& launch : *profiled) {
    if (launch.end > launch.start) run.replay_ns += launch.end - launch.start;
  }
  ImpossibleValueCounts impossible_samples;
  GPUSCOPE_RETURN_IF_ERROR(FeedGpuMetricSamples(reader, rules, impossible_samples));
  if (impossible != nullptr) *impossible += impossible_samples;
  GPUSCOPE_RETURN_IF_ERROR(ForEachGpuActivity(reader, [&](const GpuActivity& activity) {
    Extend(run, activity.start, activity.end);
    for (auto& rule : rules) rule->OnGpuActivity(activity);
  }));
  // Memory records before API calls: allocation_in_loop picks the calls by what the memory
  // records showed.
  GPUSCOPE_RETURN_IF_ERROR(reader.ForEachMemory([&](const model::MemoryRecord& record) {
    for (auto& rule : rules) rule->OnMemory(record);
    return true;
  }));
  GPUSCOPE_RETURN_IF_ERROR(reader.ForEachApiCall([&](const store::ApiCallRow& call) {
    Extend(run, call.record.start, call.record.end);
    for (auto& rule : rules) rule->OnApiCall(call);
    return true;
  }));
  std::vector<Finding> findings;
  for (auto& rule : rules) {
    if (std::optional<Finding> finding = rule->Finish(run)) {
      findings.push_back(std::move(*finding));
    }
  }
  return findings;
}

}  // namespace gpuscope::analysis::trace_rules
