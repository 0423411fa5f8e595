#include "cupti/profiler/sass_metrics_pass.h"

#include <cupti_sass_metrics.h>

#include "cupti/common/cupti_error.h"

namespace gpuscope::cupti {

const std::vector<std::string>& SourceSassMetrics() {
  static const std::vector<std::string> names = {
      "smsp__sass_inst_executed",
      "smsp__sass_thread_inst_executed",
      "smsp__sass_thread_inst_executed_pred_on",
      "smsp__sass_sectors_mem_global",
      "smsp__sass_sectors_mem_global_ideal",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared",
      "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal",
      "smsp__sass_branch_targets_threads_divergent",
      "smsp__sass_branch_targets_threads_uniform",
  };
  return names;
}

Status SassMetricsPass::Configure(std::uint32_t device, const std::string& chip) {
  if (configured_[device]) return Status();
  std::vector<CUpti_SassMetrics_Config> configs;
  std::string unknown;
  for (const std::string& name : SourceSassMetrics()) {
    CUpti_SassMetrics_GetProperties_Params properties{};
    properties.structSize = CUpti_SassMetrics_GetProperties_Params_STRUCT_SIZE;
    properties.pChipName = chip.c_str();
    properties.pMetricName = name.c_str();
    if (cuptiSassMetricsGetProperties(&properties) != CUPTI_SUCCESS) {
      unknown += (unknown.empty() ? "" : ", ") + name;
      continue;
    }
    metric_names_[properties.metric.metricId] = name;
    configs.push_back({properties.metric.metricId, CUPTI_SASS_METRICS_OUTPUT_GRANULARITY_GPU});
  }
  if (configs.empty()) return Status::Error(chip + " has none of the SASS metrics: " + unknown);
  CUpti_SassMetricsSetConfig_Params set{};
  set.structSize = CUpti_SassMetricsSetConfig_Params_STRUCT_SIZE;
  set.numOfMetricConfig = configs.size();
  set.pConfigs = configs.data();
  set.deviceIndex = device;
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiSassMetricsSetConfig(&set), "cuptiSassMetricsSetConfig"));
  configured_[device] = true;
  return Status();
}

void SassMetricsPass::Unconfigure(std::uint32_t device) {
  auto found = configured_.find(device);
  if (found == configured_.end() || !found->second) return;
  CUpti_SassMetricsUnsetConfig_Params unset{};
  unset.structSize = CUpti_SassMetricsUnsetConfig_Params_STRUCT_SIZE;
  unset.deviceIndex = device;
  cuptiSassMetricsUnsetConfig(&unset);
  found->second = false;
}

void SassMetricsPass::UnconfigureAll() {
  for (auto& [device, configured] : configured_) {
    if (configured) Unconfigure(device);
  }
}

Status SassMetricsPass::Run(CUcontext context, std::uint32_t device, const std::string& chip,
                            const std::function<Status()>& launch_and_wait,
                            inject::OwnedSourceCounters& out) {
  GPUSCOPE_RETURN_IF_ERROR(Configure(device, chip));
  CUpti_SassMetricsEnable_Params enable{};
  enable.structSize = CUpti_SassMetricsEnable_Params_STRUCT_SIZE;
  enable.ctx = context;
  // Lazy: only the functions that run are patched (the one replayed launch).
  enable.enableLazyPatching = 1;
  GPUSCOPE_RETURN_IF_ERROR(CuptiStatus(cuptiSassMetricsEnable(&enable), "cuptiSassMetricsEnable"));
  Status status = launch_and_wait();
  CUpti_SassMetricsGetDataProperties_Params properties{};
  properties.structSize = CUpti_SassMetricsGetDataProperties_Params_STRUCT_SIZE;
  properties.ctx = context;
  if (status.ok()) {
    status = CuptiStatus(cuptiSassMetricsGetDataProperties(&properties),
                         "cuptiSassMetricsGetDataProperties");
  }
  const std::size_t records = properties.numOfPatchedInstructionRecords;
  const std::size_t instances = properties.numOfInstances;
  if (status.ok() && records > 0 && instances > 0) {
    std::vector<CUpti_SassMetrics_Data> data(records);
    std::vector<CUpti_SassMetrics_InstanceValue> values(records * instances);
    for (std::size_t i = 0; i < records; ++i) {
      data[i].structSize = sizeof(CUpti_SassMetrics_Data);
      data[i].pInstanceValues = &values[i * instances];
    }
    CUpti_SassMetricsFlushData_Params flush{};
    flush.structSize = CUpti_SassMetricsFlushData_Params_STRUCT_SIZE;
    flush.ctx = context;
    flush.numOfPatchedInstructionRecords = records;
    flush.numOfInstances = instances;
    flush.pMetricsData = data.data();
    status = CuptiStatus(cuptiSassMetricsFlushData(&flush), "cuptiSassMetricsFlushData");
    if (status.ok()) {
      for (const CUpti_SassMetrics_Data& record : data) {
        const std::string_view function =
            out.Name(record.functionName != nullptr ? record.functionName : "");
        // One record per (instruction, metric); instances are parts of the GPU (one here).
        std::map<std::uint64_t, std::uint64_t> sums;
        for (std::size_t k = 0; k < instances; ++k) {
          sums[record.pInstanceValues[k].metricId] += record.pInstanceValues[k].value;
        }
        for (const auto& [metric_id, value] : sums) {
          auto name = metric_names_.find(metric_id);
          if (name == metric_names_.end()) continue;
          out.values.push_back(
              {record.cubinCrc, function, record.pcOffset, out.Name(name->second), value});
        }
      }
    }
  }
  CUpti_SassMetricsDisable_Params disable{};
  disable.structSize = CUpti_SassMetricsDisable_Params_STRUCT_SIZE;
  disable.ctx = context;
  Status disabled = CuptiStatus(cuptiSassMetricsDisable(&disable), "cuptiSassMetricsDisable");
  if (status.ok() && records == 0) {
    status = Status::Error("CUPTI's SASS patching gave no records for the launch");
  }
  return status.ok() ? disabled : status;
}

}  // namespace gpuscope::cupti
