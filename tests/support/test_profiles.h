// KernelProfiles for the tests, with the values measured on our H200 for two kernels of
// ../shared/notes/cupti.md Appendix A (saxpy on 64M floats, the 32-way bank-conflict
// shared-memory kernel) and the launch configurations and device recorded with them.
// Metrics Appendix A does not list are absent, so the sections show "n/a" for them.
#pragma once

#include <string>

#include "analysis/metrics/kernel_profile.h"
#include "store/testing/devices.h"

namespace gpuscope::analysis::metrics::testing {

// The fixtures' H200 (store/testing/devices.h) as a KernelProfile carries it.
inline ProfiledDevice H200() {
  const model::DeviceRecord record = store::testing::H200();
  ProfiledDevice d;
  d.id = record.id;
  d.name = std::string(record.name);
  d.compute_major = record.compute_major;
  d.compute_minor = record.compute_minor;
  d.num_sms = record.num_sms;
  d.max_warps_per_sm = record.max_warps_per_sm;
  d.max_blocks_per_sm = record.max_blocks_per_sm;
  d.max_registers_per_sm = record.max_registers_per_sm;
  d.max_shared_memory_per_sm = record.max_shared_memory_per_sm;
  d.max_shared_memory_per_block_optin = record.max_shared_memory_per_block_optin;
  d.global_memory_bandwidth_kbps = record.global_memory_bandwidth_kbps;
  d.l2_cache_bytes = record.l2_cache_bytes;
  return d;
}

inline KernelProfile Saxpy() {
  KernelProfile k;
  k.id = 1;
  k.profile_index = 0;
  k.invocation = 0;
  k.pid = 4242;
  k.mangled_name = "_Z5saxpyifPKfPf";
  k.demangled_name = "saxpy(int, float, const float *, float *)";
  k.function_name = "saxpy";
  k.context_id = 1;
  k.stream_id = 7;
  k.device_id = 0;
  k.grid = {262144, 1, 1};  // 64M floats / 256 threads
  k.block = {256, 1, 1};
  k.registers_per_thread = 16;
  k.shared_memory_executed = 32768;
  k.traced_duration_ns = 60900;
  k.device = H200();
  k.chip = "GH100";
  k.passes = 20;
  k.measured = true;
  k.metrics = {
      {"gpu__time_duration.sum", 61728},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 34.6},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 69.1},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", 18.0},
      {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 75.4},
      {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 69.1},
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 69.1},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", 74.3},
      {"sm__inst_executed.avg.per_cycle_active", 0.64},
      {"smsp__warps_eligible.avg.per_cycle_active", 0.20},
      {"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio", 32},
      {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", 61.4},
      {"gpc__cycles_elapsed.avg.per_second", 1.98e9},
      {"dram__cycles_elapsed.avg.per_second", 3.198e9},
      {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", 16777216},
      {"dram__bytes.sum", 134230000},
      {"dram__bytes.sum.per_second", 3.32e12},
  };
  return k;
}

inline KernelProfile SharedMemoryConflicts() {
  KernelProfile k;
  k.id = 5;
  k.profile_index = 4;
  k.invocation = 0;
  k.pid = 4242;
  k.mangled_name = "_Z13smem_conflictPf";
  k.demangled_name = "smem_conflict(float *)";
  k.function_name = "smem_conflict";
  k.context_id = 1;
  k.stream_id = 7;
  k.device_id = 0;
  k.grid = {1024, 1, 1};
  k.block = {256, 1, 1};
  k.registers_per_thread = 32;
  k.static_shared_memory = 16896;
  k.dynamic_shared_memory = 1024;
  k.shared_memory_executed = 167936;
  k.device = H200();
  k.chip = "GH100";
  k.passes = 20;
  k.measured = true;
  k.metrics = {
      {"gpu__time_duration.sum", 532600},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", 5.0},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", 99.5},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", 99.9},
      {"lts__throughput.avg.pct_of_peak_sustained_elapsed", 0.02},
      {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 0.01},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", 23.9},
      {"sm__inst_executed.avg.per_cycle_active", 0.20},
      {"smsp__warps_eligible.avg.per_cycle_active", 0.06},
      {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", 52.0},
      {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", 22.4},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1.341e8},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 1.384e8},
      {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
      {"smsp__sass_inst_executed_op_shared_ld.sum", 4.33e6},
      {"smsp__inst_executed_op_ldsm.sum", 0},
      {"gpc__cycles_elapsed.avg.per_second", 1.98e9},
      {"dram__cycles_elapsed.avg.per_second", 3.198e9},
  };
  return k;
}

}  // namespace gpuscope::analysis::metrics::testing
