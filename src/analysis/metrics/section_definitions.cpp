// The sections of ncu's report, entry by entry (section_catalog.h says what they are; the
// lookups by set and name are in section_catalog.cpp).
#include <set>
#include <utility>

#include "analysis/metrics/section_catalog.h"

namespace gpuscope::analysis::metrics {
namespace {

// Small builders so that the catalog below reads like ncu's section files.
SectionEntry Metric(std::string label, std::string unit, std::string name) {
  SectionEntry e;
  e.label = std::move(label);
  e.unit = std::move(unit);
  e.metrics = {std::move(name)};
  return e;
}

SectionEntry Scaled(std::string label, UnitKind kind, std::string name, std::string suffix = "") {
  SectionEntry e = Metric(std::move(label), std::move(suffix), std::move(name));
  e.unit_kind = kind;
  return e;
}

SectionEntry Derived(std::string label, UnitKind kind, std::string unit,
                     std::vector<std::string> inputs, Formula formula) {
  SectionEntry e;
  e.label = std::move(label);
  e.unit_kind = kind;
  e.unit = std::move(unit);
  e.source = ValueSource::kFormula;
  e.metrics = std::move(inputs);
  e.formula = formula;
  return e;
}

SectionEntry Launch(std::string label, UnitKind kind, std::string unit, LaunchValue value) {
  SectionEntry e;
  e.label = std::move(label);
  e.unit_kind = kind;
  e.unit = std::move(unit);
  e.source = ValueSource::kLaunch;
  e.launch_value = value;
  return e;
}

SectionEntry Occupancy(std::string label, std::string unit, LaunchValue value) {
  SectionEntry e = Launch(std::move(label), UnitKind::kFixed, std::move(unit), value);
  e.source = ValueSource::kOccupancy;
  return e;
}

SectionEntry In(std::string table, SectionEntry e) {
  e.table = std::move(table);
  return e;
}

SectionEntry Optional(SectionEntry e) {
  e.optional = true;
  return e;
}

// Formulas. Inputs arrive in the order the entry lists them; a missing input makes the
// row "n/a" before any formula runs, so only divisions by zero need care here.
double Ratio(double num, double den) { return den == 0 ? 0 : num / den; }
double HundredMinus(std::span<const double> v) { return 100.0 - v[0]; }
double Quotient(std::span<const double> v) { return Ratio(v[0], v[1]); }
double PercentOfSums(std::span<const double> v) { return 100.0 * Ratio(v[0] + v[1], v[2] + v[3]); }
double WavefrontsPerRequest(std::span<const double> v) { return Ratio(v[0], v[1] + v[2]); }
// FLOPs: an FMA is two operations (ncu's roofline counts it so).
double Flops(std::span<const double> v) { return v[0] + v[1] + 2.0 * v[2]; }
double FlopRate(std::span<const double> v) { return (v[0] + v[1] + 2.0 * v[2]) * v[3]; }
double PeakFlopRate(std::span<const double> v) { return 2.0 * v[0] * v[1]; }
double Product(std::span<const double> v) { return v[0] * v[1]; }
// Tensor-core math operations of every floating-point input type (Hopper counts each
// multiply and each add, like the FLOPs of the other rows).
double Sum(std::span<const double> v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum;
}
// The same operations per second: the last input is the duration in ns.
double SumPerSecond(std::span<const double> v) {
  return Ratio(Sum(v.first(v.size() - 1)), v.back() * 1e-9);
}
double Intensity(std::span<const double> v) {
  return Ratio((v[0] + v[1] + 2.0 * v[2]) * v[3], v[4]);
}

// The tensor math-op counters of GH100 (and later chips) by floating-point input type.
std::vector<std::string> TensorOpInputs() {
  return {"sm__ops_path_tensor_src_fp16.sum", "sm__ops_path_tensor_src_bf16_dst_fp32.sum",
          "sm__ops_path_tensor_src_tf32_dst_fp32.sum", "sm__ops_path_tensor_src_fp8.sum",
          "sm__ops_path_tensor_src_fp64.sum"};
}

std::vector<std::string> FlopInputs(std::string_view precision, std::string_view rollup) {
  std::vector<std::string> names;
  for (std::string_view op : {"add", "mul", "fma"}) {
    names.push_back("smsp__sass_thread_inst_executed_op_" + std::string(precision) +
                    std::string(op) + "_pred_on.sum" + std::string(rollup));
  }
  return names;
}

std::vector<std::string> With(std::vector<std::string> names, std::string more) {
  names.push_back(std::move(more));
  return names;
}

Section SpeedOfLight() {
  const std::string compute = "SOL Compute Breakdown";
  const std::string memory = "SOL Memory Breakdown";
  const auto pct = [](std::string table, std::string label, std::string name) {
    return In(std::move(table), Metric(std::move(label), "%", std::move(name)));
  };
  return {
      "SpeedOfLight",
      "GPU Speed Of Light Throughput",
      {"basic", "full"},
      {
          Scaled("DRAM Frequency", UnitKind::kFrequency, "dram__cycles_elapsed.avg.per_second"),
          Scaled("SM Frequency", UnitKind::kFrequency, "gpc__cycles_elapsed.avg.per_second"),
          Metric("Elapsed Cycles", "cycle", "gpc__cycles_elapsed.max"),
          Metric("Memory Throughput", "%",
                 "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
          Metric("DRAM Throughput", "%", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"),
          Scaled("Duration", UnitKind::kDuration, "gpu__time_duration.sum"),
          Metric("L1/TEX Cache Throughput", "%",
                 "l1tex__throughput.avg.pct_of_peak_sustained_active"),
          Metric("L2 Cache Throughput", "%", "lts__throughput.avg.pct_of_peak_sustained_elapsed"),
          Metric("SM Active Cycles", "cycle", "sm__cycles_active.avg"),
          Metric("Compute (SM) Throughput", "%",
                 "sm__throughput.avg.pct_of_peak_sustained_elapsed"),
          // The sub-throughputs of sm__throughput (ncu's breakdown:), "UNIT: Name" labels.
          pct(compute, "SM: Inst Executed", "sm__inst_executed.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Issue Active", "sm__issue_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Instruction Throughput",
              "sm__instruction_throughput.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe ADU",
              "sm__inst_executed_pipe_adu.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe ALU",
              "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe FMA",
              "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe FP64",
              "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe LSU",
              "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe Uniform",
              "sm__inst_executed_pipe_uniform.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Inst Executed Pipe XU",
              "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: MIO Inst Issued",
              "sm__mio_inst_issued.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: MIO PQ Read Cycles Active",
              "sm__mio_pq_read_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: MIO PQ Write Cycles Active",
              "sm__mio_pq_write_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: MIO2RF Writeback Active",
              "sm__mio2rf_writeback_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Pipe ALU Cycles Active",
              "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Pipe FMA Cycles Active",
              "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Pipe FP64 Cycles Active",
              "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Pipe Shared Cycles Active",
              "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(compute, "SM: Pipe Tensor Cycles Active",
              "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
          // The sub-throughputs of gpu__compute_memory_throughput.
          pct(memory, "DRAM: Throughput", "dram__throughput.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: Data Bank Reads",
              "l1tex__data_bank_reads.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: Data Bank Writes",
              "l1tex__data_bank_writes.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: Data Pipe LSU Wavefronts",
              "l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: Data Pipe LSU Wavefronts Mem Shared",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: F Wavefronts", "l1tex__f_wavefronts.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: LSU Writeback Active",
              "l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: LSUIN Requests",
              "l1tex__lsuin_requests.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: M Xbar2L1TEX Read Sectors",
              "l1tex__m_xbar2l1tex_read_sectors.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L1: TEXIN SM2TEX Req Cycles Active",
              "l1tex__texin_sm2tex_req_cycles_active.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: D Sectors", "lts__d_sectors.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: D Sectors Fill Device",
              "lts__d_sectors_fill_device.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: D Sectors Fill Sysmem",
              "lts__d_sectors_fill_sysmem.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: LTS2XBAR Cycles Active",
              "lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: T Sectors", "lts__t_sectors.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: T Tag Requests",
              "lts__t_tag_requests.avg.pct_of_peak_sustained_elapsed"),
          pct(memory, "L2: XBAR2LTS Cycles Active",
              "lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed"),
      }};
}

// ncu draws a chart; we print the numbers the chart is made of.
Section Roofline() {
  const std::string flops = "Floating Point Operations";
  const std::string traffic = "Memory Traffic";
  const std::string peaks = "Device Peaks";
  const std::string sm_clock = "sm__cycles_elapsed.avg.per_second";
  const std::string smsp_clock = "smsp__cycles_elapsed.avg.per_second";
  const std::string dram_rate = "dram__bytes.sum.per_second";
  return {
      "SpeedOfLight_RooflineChart",
      "GPU Speed Of Light Roofline Chart",
      {"full"},
      {
          Derived("FP32 Achieved Performance", UnitKind::kFlopRate, "",
                  With(FlopInputs("f", ".per_cycle_elapsed"), smsp_clock), FlopRate),
          Derived("FP64 Achieved Performance", UnitKind::kFlopRate, "",
                  With(FlopInputs("d", ".per_cycle_elapsed"), smsp_clock), FlopRate),
          Derived("FP16 Achieved Performance", UnitKind::kFlopRate, "",
                  With(FlopInputs("h", ".per_cycle_elapsed"), smsp_clock), FlopRate),
          Scaled("DRAM Achieved Bandwidth", UnitKind::kByteRate, dram_rate),
          Derived("FP32 Arithmetic Intensity", UnitKind::kFixed, "flop/byte",
                  With(With(FlopInputs("f", ".per_cycle_elapsed"), smsp_clock), dram_rate),
                  Intensity),
          Derived("FP64 Arithmetic Intensity", UnitKind::kFixed, "flop/byte",
                  With(With(FlopInputs("d", ".per_cycle_elapsed"), smsp_clock), dram_rate),
                  Intensity),
          In(flops,
             Derived("FP32 Operations", UnitKind::kFixed, "flop", FlopInputs("f", ""), Flops)),
          In(flops,
             Derived("FP64 Operations", UnitKind::kFixed, "flop", FlopInputs("d", ""), Flops)),
          In(flops,
             Derived("FP16 Operations", UnitKind::kFixed, "flop", FlopInputs("h", ""), Flops)),
          Optional(Derived("Tensor Achieved Performance", UnitKind::kFlopRate, "",
                           With(TensorOpInputs(), "gpu__time_duration.sum"), SumPerSecond)),
          In(flops, Optional(Derived("Tensor Operations", UnitKind::kFixed, "flop",
                                     TensorOpInputs(), Sum))),
          In(flops, Metric("Tensor HMMA Instructions", "inst",
                           "sm__inst_executed_pipe_tensor_op_hmma.sum")),
          In(flops, Optional(Metric("Tensor GMMA Instructions", "inst",
                                    "sm__inst_executed_pipe_tensor_op_gmma.sum"))),
          In(traffic, Scaled("L1/TEX Bytes", UnitKind::kBytes, "l1tex__t_bytes.sum")),
          In(traffic, Scaled("L2 Bytes", UnitKind::kBytes, "lts__t_bytes.sum")),
          In(traffic, Scaled("DRAM Bytes", UnitKind::kBytes, "dram__bytes.sum")),
          In(peaks,
             Derived("FP32 Peak Performance", UnitKind::kFlopRate, "",
                     {"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained", sm_clock},
                     PeakFlopRate)),
          In(peaks,
             Derived("FP64 Peak Performance", UnitKind::kFlopRate, "",
                     {"sm__sass_thread_inst_executed_op_dfma_pred_on.sum.peak_sustained", sm_clock},
                     PeakFlopRate)),
          In(peaks,
             Derived("DRAM Peak Bandwidth", UnitKind::kByteRate, "",
                     {"dram__bytes.sum.peak_sustained", "dram__cycles_elapsed.avg.per_second"},
                     Product)),
      }};
}

Section ComputeWorkload() {
  const std::string active = "Pipe Utilization (% of active cycles)";
  const std::string executed = "Pipe Utilization (% of peak instructions executed)";
  const auto pct = [](std::string table, std::string label, std::string name) {
    return In(std::move(table), Metric(std::move(label), "%", std::move(name)));
  };
  return {
      "ComputeWorkloadAnalysis",
      "Compute Workload Analysis",
      {"full"},
      {
          Metric("Executed Ipc Active", "inst/cycle", "sm__inst_executed.avg.per_cycle_active"),
          Metric("Executed Ipc Elapsed", "inst/cycle", "sm__inst_executed.avg.per_cycle_elapsed"),
          Metric("Issue Slots Busy", "%", "sm__inst_issued.avg.pct_of_peak_sustained_elapsed"),
          Metric("Issued Ipc Active", "inst/cycle", "sm__inst_issued.avg.per_cycle_active"),
          Metric("SM Busy", "%", "sm__instruction_throughput.avg.pct_of_peak_sustained_elapsed"),
          pct(active, "ALU", "sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(active, "FMA", "sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(active, "FP64", "sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(active, "Shared (FP64+Tensor)",
              "sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(active, "Tensor (All)",
              "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active"),
          pct(active, "Tensor (FP)",
              "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed"),
          Optional(
              pct(active, "TMA", "sm__pipe_tma_cycles_active.avg.pct_of_peak_sustained_elapsed")),
          pct(executed, "ALU", "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active"),
          pct(executed, "FMA", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active"),
          pct(executed, "FP64", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active"),
          pct(executed, "LSU", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_active"),
          pct(executed, "XU", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active"),
          Optional(pct(executed, "Tensor (Warp Group)",
                       "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_elapsed")),
          Optional(
              pct(executed, "TMA", "sm__inst_executed_pipe_tma.avg.pct_of_peak_sustained_elapsed")),
      }};
}

Section MemoryWorkload() {
  const std::string global = "Global Memory Access";
  const std::string shared = "Shared Memory";
  const std::string local = "Local Memory (Spills)";
  const std::string caches = "Caches and DRAM";
  const std::string ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
  const std::string ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  const std::string st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
  const std::string st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
  const std::string conflicts_ld = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
  const std::string conflicts_st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
  const std::string wavefronts_ld = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
  const std::string wavefronts_st = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
  const std::string shared_ld = "smsp__sass_inst_executed_op_shared_ld.sum";
  const std::string shared_st = "smsp__sass_inst_executed_op_shared_st.sum";
  const std::string ldsm = "smsp__inst_executed_op_ldsm.sum";
  return {
      "MemoryWorkloadAnalysis",
      "Memory Workload Analysis",
      {"full"},
      {
          Scaled("Memory Throughput", UnitKind::kByteRate, "dram__bytes.sum.per_second"),
          Metric("L1/TEX Hit Rate", "%", "l1tex__t_sector_hit_rate.pct"),
          Optional(Metric("L2 Compression Success Rate", "%",
                          "lrc__average_ilc_input_sector_success_rate.pct")),
          Optional(Metric("L2 Compression Ratio", "",
                          "lrc__average_ilc_output_sector_compression_achieved_rate.pct")),
          Optional(Metric("L2 Compression Input Sectors", "sector", "lrc__ilc_input_sectors.sum")),
          Metric("L2 Hit Rate", "%", "lts__t_sector_hit_rate.pct"),
          Metric("Mem Busy", "%",
                 "gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed"),
          Metric("Max Bandwidth", "%",
                 "gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed"),
          Metric("Mem Pipes Busy", "%", "sm__memory_throughput.avg.pct_of_peak_sustained_elapsed"),
          In(global, Metric("Global Load Instructions", "inst",
                            "smsp__sass_inst_executed_op_global_ld.sum")),
          In(global, Metric("Global Load Requests", "request", ld_requests)),
          In(global, Metric("Global Load Sectors", "sector", ld_sectors)),
          In(global, Derived("Global Load Sectors Per Request", UnitKind::kFixed, "sector",
                             {ld_sectors, ld_requests}, Quotient)),
          In(global, Metric("Global Load Bytes Per Sector", "byte",
                            "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio")),
          In(global, Metric("Global Load L1/TEX Hit Rate", "%",
                            "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")),
          In(global, Metric("Global Store Instructions", "inst",
                            "smsp__sass_inst_executed_op_global_st.sum")),
          In(global, Metric("Global Store Requests", "request", st_requests)),
          In(global, Metric("Global Store Sectors", "sector", st_sectors)),
          In(global, Derived("Global Store Sectors Per Request", UnitKind::kFixed, "sector",
                             {st_sectors, st_requests}, Quotient)),
          In(global, Metric("Global Store Bytes Per Sector", "byte",
                            "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio")),
          In(global,
             Metric("Global Sectors (SASS)", "sector", "smsp__sass_sectors_mem_global.sum")),
          In(shared, Metric("Shared Load Instructions", "inst", shared_ld)),
          In(shared, Metric("Shared Store Instructions", "inst", shared_st)),
          In(shared, Metric("Shared LDSM Instructions", "inst", ldsm)),
          In(shared, Metric("Shared Load Wavefronts", "", wavefronts_ld)),
          In(shared, Metric("Shared Store Wavefronts", "", wavefronts_st)),
          In(shared, Metric("Shared Load Bank Conflicts", "", conflicts_ld)),
          In(shared, Metric("Shared Store Bank Conflicts", "", conflicts_st)),
          In(shared,
             Derived("Shared Bank Conflicts Of Wavefronts", UnitKind::kFixed, "%",
                     {conflicts_ld, conflicts_st, wavefronts_ld, wavefronts_st}, PercentOfSums)),
          In(shared, Derived("Shared Load Wavefronts Per Request", UnitKind::kFixed, "",
                             {wavefronts_ld, shared_ld, ldsm}, WavefrontsPerRequest)),
          In(local,
             Metric("Local Load Instructions", "inst", "smsp__sass_inst_executed_op_local_ld.sum")),
          In(local, Metric("Local Store Instructions", "inst",
                           "smsp__sass_inst_executed_op_local_st.sum")),
          In(caches, Scaled("L1/TEX Bytes", UnitKind::kBytes, "l1tex__t_bytes.sum")),
          In(caches, Scaled("L2 Bytes", UnitKind::kBytes, "lts__t_bytes.sum")),
          In(caches, Metric("L2 Sectors From L1/TEX Reads", "sector",
                            "lts__t_sectors_srcunit_tex_op_read.sum")),
          In(caches, Metric("L2 Sectors From L1/TEX Writes", "sector",
                            "lts__t_sectors_srcunit_tex_op_write.sum")),
          In(caches, Metric("L2 Read Hit Rate", "%", "lts__t_sector_op_read_hit_rate.pct")),
          In(caches, Metric("L2 Write Hit Rate", "%", "lts__t_sector_op_write_hit_rate.pct")),
          In(caches, Scaled("DRAM Read Bytes", UnitKind::kBytes, "dram__bytes_read.sum")),
          In(caches, Scaled("DRAM Write Bytes", UnitKind::kBytes, "dram__bytes_write.sum")),
      }};
}

Section SchedulerStats() {
  const std::string issue_pct = "smsp__issue_active.avg.pct_of_peak_sustained_active";
  return {
      "SchedulerStats",
      "Scheduler Statistics",
      {"full"},
      {
          Metric("One or More Eligible", "%", issue_pct),
          Metric("Issued Warp Per Scheduler", "", "smsp__issue_active.avg.per_cycle_active"),
          Derived("No Eligible", UnitKind::kFixed, "%", {issue_pct}, HundredMinus),
          Metric("Active Warps Per Scheduler", "warp", "smsp__warps_active.avg.per_cycle_active"),
          Metric("Eligible Warps Per Scheduler", "warp",
                 "smsp__warps_eligible.avg.per_cycle_active"),
          Metric("GPU Maximum Warps Per Scheduler", "warp",
                 "smsp__warps_active.avg.peak_sustained"),
      }};
}

Section WarpStateStats() {
  const std::string stalls = "Warp Stall Reasons (cycles per issued instruction)";
  const auto stall = [&stalls](std::string label, std::string reason) {
    return In(stalls, Metric(std::move(label), "cycle",
                             "smsp__average_warps_issue_stalled_" + std::move(reason) +
                                 "_per_issue_active.ratio"));
  };
  return {"WarpStateStats",
          "Warp State Statistics",
          {"full"},
          {
              Metric("Warp Cycles Per Issued Instruction", "cycle",
                     "smsp__average_warp_latency_per_inst_issued.ratio"),
              Metric("Warp Cycles Per Executed Instruction", "cycle",
                     "smsp__average_warps_active_per_inst_executed.ratio"),
              Metric("Avg. Active Threads Per Warp", "",
                     "smsp__thread_inst_executed_per_inst_executed.ratio"),
              Metric("Avg. Not Predicated Off Threads Per Warp", "",
                     "smsp__thread_inst_executed_pred_on_per_inst_executed.ratio"),
              stall("Stall Long Scoreboard", "long_scoreboard"),
              stall("Stall Short Scoreboard", "short_scoreboard"),
              stall("Stall Barrier", "barrier"),
              stall("Stall MIO Throttle", "mio_throttle"),
              stall("Stall LG Throttle", "lg_throttle"),
              stall("Stall Math Pipe Throttle", "math_pipe_throttle"),
              stall("Stall Wait", "wait"),
              stall("Stall Not Selected", "not_selected"),
              stall("Selected", "selected"),
              stall("Stall No Instruction", "no_instruction"),
              stall("Stall Drain", "drain"),
              stall("Stall Membar", "membar"),
              stall("Stall Dispatch Stall", "dispatch_stall"),
              stall("Stall Branch Resolving", "branch_resolving"),
              stall("Stall Sleeping", "sleeping"),
              stall("Stall Tex Throttle", "tex_throttle"),
              // ncu lists IMC misses up to CC 9.0 and GMMA on CC 9.0 only.
              Optional(stall("Stall IMC Miss", "imc_miss")),
              stall("Stall Misc", "misc"),
              Optional(stall("Stall GMMA", "gmma")),
          }};
}

Section InstructionStats() {
  const std::string mix = "Thread Instructions Executed (Predicated-On)";
  const auto op = [&mix](std::string label, std::string name) {
    return In(mix,
              Metric(std::move(label), "inst",
                     "smsp__sass_thread_inst_executed_op_" + std::move(name) + "_pred_on.sum"));
  };
  return {
      "InstructionStats",
      "Instruction Statistics",
      {"full"},
      {
          Metric("Executed Instructions", "inst", "smsp__inst_executed.sum"),
          Metric("Issued Instructions", "inst", "smsp__inst_issued.sum"),
          Metric("Avg. Executed Instructions Per Scheduler", "inst", "smsp__inst_executed.avg"),
          Metric("Avg. Issued Instructions Per Scheduler", "inst", "smsp__inst_issued.avg"),
          In(mix, Metric("Thread Instructions Executed", "inst", "smsp__thread_inst_executed.sum")),
          In(mix,
             Metric("Warp Instructions Executed (SASS)", "inst", "smsp__sass_inst_executed.sum")),
          op("FADD", "fadd"),
          op("FMUL", "fmul"),
          op("FFMA", "ffma"),
          op("DADD", "dadd"),
          op("DMUL", "dmul"),
          op("DFMA", "dfma"),
          op("HADD", "hadd"),
          op("HMUL", "hmul"),
          op("HFMA", "hfma"),
          In(mix, Metric("Warps Launched", "warp", "smsp__warps_launched.sum")),
          In(mix, Metric("Blocks Launched", "block", "sm__ctas_launched.sum")),
      }};
}

Section LaunchStats() {
  return {"LaunchStats",
          "Launch Statistics",
          {"basic", "full"},
          {
              Launch("Block Size", UnitKind::kFixed, "", LaunchValue::kBlockSize),
              Launch("Cluster Size", UnitKind::kFixed, "", LaunchValue::kClusterSize),
              Launch("Grid Size", UnitKind::kFixed, "", LaunchValue::kGridSize),
              Launch("Registers Per Thread", UnitKind::kFixed, "register/thread",
                     LaunchValue::kRegistersPerThread),
              Launch("Shared Memory Configuration Size", UnitKind::kBytes, "",
                     LaunchValue::kSharedMemoryConfigurationSize),
              Launch("Driver Shared Memory Per Block", UnitKind::kBytes, "/block",
                     LaunchValue::kDriverSharedMemoryPerBlock),
              Launch("Dynamic Shared Memory Per Block", UnitKind::kBytes, "/block",
                     LaunchValue::kDynamicSharedMemoryPerBlock),
              Launch("Static Shared Memory Per Block", UnitKind::kBytes, "/block",
                     LaunchValue::kStaticSharedMemoryPerBlock),
              Launch("# SMs", UnitKind::kFixed, "SM", LaunchValue::kSmCount),
              Launch("Threads", UnitKind::kFixed, "thread", LaunchValue::kThreads),
              Occupancy("Waves Per SM", "", LaunchValue::kWavesPerSm),
          }};
}

Section OccupancySection() {
  return {
      "Occupancy",
      "Occupancy",
      {"basic", "full"},
      {
          Occupancy("Block Limit Barriers", "block", LaunchValue::kBlockLimitBarriers),
          Occupancy("Block Limit SM", "block", LaunchValue::kBlockLimitSm),
          Occupancy("Block Limit Registers", "block", LaunchValue::kBlockLimitRegisters),
          Occupancy("Block Limit Shared Mem", "block", LaunchValue::kBlockLimitSharedMem),
          Occupancy("Block Limit Warps", "block", LaunchValue::kBlockLimitWarps),
          Occupancy("Theoretical Active Warps per SM", "warp",
                    LaunchValue::kTheoreticalActiveWarps),
          Occupancy("Theoretical Occupancy", "%", LaunchValue::kTheoreticalOccupancy),
          Metric("Achieved Occupancy", "%", "sm__warps_active.avg.pct_of_peak_sustained_active"),
          Metric("Achieved Active Warps Per SM", "warp", "sm__warps_active.avg.per_cycle_active"),
      }};
}

Section SourceCounters() {
  return {
      "SourceCounters",
      "Source Counters",
      {"full"},
      {
          Metric("Branch Instructions", "inst", "smsp__inst_executed_op_branch.sum"),
          // ncu prints the plain ratio under a "%" unit (0.12 for 12 in 10,000); so do we.
          Derived("Branch Instructions Ratio", UnitKind::kFixed, "%",
                  {"smsp__inst_executed_op_branch.sum", "smsp__inst_executed.sum"}, Quotient),
          Metric("Branch Efficiency", "%", "smsp__sass_average_branch_targets_threads_uniform.pct"),
          Metric("Avg. Divergent Branches", "branches",
                 "smsp__sass_branch_targets_threads_divergent.avg"),
          Metric("Divergent Branch Targets", "branches",
                 "smsp__sass_branch_targets_threads_divergent.sum"),
          Metric("Uniform Branch Targets", "branches",
                 "smsp__sass_branch_targets_threads_uniform.sum"),
      }};
}

Section WorkloadDistribution() {
  return {"WorkloadDistribution",
          "GPU and Memory Workload Distribution",
          {"basic", "full"},
          {
              Metric("Average DRAM Active Cycles", "cycle", "dram__cycles_active.avg"),
              Metric("Total DRAM Elapsed Cycles", "cycle", "dram__cycles_elapsed.sum"),
              Metric("Average L1 Active Cycles", "cycle", "l1tex__cycles_active.avg"),
              Metric("Total L1 Elapsed Cycles", "cycle", "l1tex__cycles_elapsed.sum"),
              Metric("Average L2 Active Cycles", "cycle", "lts__cycles_active.avg"),
              Metric("Total L2 Elapsed Cycles", "cycle", "lts__cycles_elapsed.sum"),
              Metric("Average SM Active Cycles", "cycle", "sm__cycles_active.avg"),
              Metric("Total SM Elapsed Cycles", "cycle", "sm__cycles_elapsed.sum"),
              Metric("Average SMSP Active Cycles", "cycle", "smsp__cycles_active.avg"),
              Metric("Total SMSP Elapsed Cycles", "cycle", "smsp__cycles_elapsed.sum"),
          }};
}

}  // namespace

const std::vector<Section>& AllSections() {
  // The order of reference 004 (ncu's report): what users scan for first comes first.
  static const std::vector<Section> sections = {
      SpeedOfLight(),         Roofline(),       ComputeWorkload(),
      MemoryWorkload(),       SchedulerStats(), WarpStateStats(),
      InstructionStats(),     LaunchStats(),    OccupancySection(),
      WorkloadDistribution(), SourceCounters(),
  };
  return sections;
}

Section CommandLineMetricsSection(const std::vector<std::string>& metric_names) {
  Section section{"CommandLineMetrics", std::string(kCommandLineMetricsSection), {}, {}};
  std::set<std::string> seen;
  for (const std::string& name : metric_names) {
    if (!seen.insert(name).second) continue;
    section.entries.push_back(Metric(name, "", name));
  }
  return section;
}

}  // namespace gpuscope::analysis::metrics
