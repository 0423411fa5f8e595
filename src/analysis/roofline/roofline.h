// The roofline of one profiled kernel launch: what it achieved (FLOP/s per precision, bytes/s
// per memory level), the device's roofs (peak FLOP/s and bandwidths, from the launch's own
// peak metrics where CUPTI gives them), the arithmetic intensities that place the kernel on
// the chart, and a verdict: memory-bound, compute-bound or latency-bound, with the headroom
// to the roof that bounds it.
//
// Inputs (all optional; what is missing leaves its row "n/a" and is listed in `missing`):
//   duration      gpu__time_duration.sum
//   FLOPs         smsp__sass_thread_inst_executed_op_{d,f,h}{add,mul,fma}_pred_on.sum,
//                 FLOPs = add + mul + 2 x fma (an FMA is two operations, as ncu counts it)
//   FLOP roofs    sm__sass_thread_inst_executed_op_{ffma,dfma,hfma}_pred_on.sum.peak_sustained
//                 (FMAs per cycle, whole GPU) x 2 x sm__cycles_elapsed.avg.per_second
//   tensor        sm__ops_path_tensor_src_{fp16,bf16_dst_fp32,tf32_dst_fp32,fp8,fp64}.sum (math
//                 operations = FLOPs, checked against 2 n^3 of an FP16 matmul on the H200; roof:
//                 the one the tensor pipe's utilisation implies), else, where those are missing,
//                 sm__inst_executed_pipe_tensor_op_{hmma,gmma}.sum (warp instructions) and
//                 sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed: instruction
//                 counts do not say the MMA shape, so no FLOPs then; the pipe's utilisation is
//                 its share of the roof.
//   bytes         dram__bytes.sum, lts__t_bytes.sum, l1tex__t_bytes.sum
//   bandwidth     DRAM: dram__bytes.sum.peak_sustained x dram__cycles_elapsed.avg.per_second;
//   roofs         L2/L1: <level>__t_bytes.sum.peak_sustained x <level>__cycles_elapsed
//                 .avg.per_second when recorded; else L2 from its measured share of peak
//                 (lts__t_sectors.avg.pct_of_peak_sustained_elapsed counts the same sectors as
//                 lts__t_bytes); else the chip's published value (roofline_peaks.h).
//   L1 busy       l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed: the data
//                 stage serves global, local and shared memory, but l1tex__t_bytes counts only
//                 what passes the tag stage (global, local): a kernel bound by shared-memory
//                 wavefronts (bank conflicts) moves few such bytes while L1/TEX is saturated.
//                 L1's % of peak is the higher of the two, so the table and the verdict agree.
//   busy units    sm__throughput / gpu__compute_memory_throughput .avg.pct_of_peak_sustained_
//                 elapsed (ncu's Speed Of Light), which also see pipes and memory stages that
//                 FLOPs and bytes do not (integer pipes, shared memory wavefronts).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/metrics/kernel_profile.h"

namespace gpuscope::analysis::roofline {

enum class Precision { kFp64, kFp32, kFp16, kTensor };
enum class MemoryLevel { kDram, kL2, kL1 };

std::string_view PrecisionName(Precision precision);  // "FP64", "FP32", "FP16", "Tensor"
std::string_view MemoryLevelName(MemoryLevel level);  // "DRAM", "L2", "L1"

struct FlopRate {
  Precision precision = Precision::kFp32;
  std::optional<double> flops;  // operations (tensor without ops counters: warp instructions)
  std::optional<double> flop_per_second;  // unset for tensor without ops counters
  std::optional<double> peak_flop_per_second;
  // Achieved share of the roof, 0-100 (tensor: the pipe's measured utilisation).
  std::optional<double> pct_of_peak;
};

struct Bandwidth {
  MemoryLevel level = MemoryLevel::kDram;
  std::optional<double> bytes;
  std::optional<double> bytes_per_second;
  std::optional<double> peak_bytes_per_second;
  std::string peak_source;  // "metrics", "measured share of peak", "GH100 table"
  // How busy the level is, 0-100: its bytes' share of the byte roof, or, for L1, the
  // L1/TEX data stage's busy share where that is higher (`busy_source` then says so).
  std::optional<double> pct_of_peak;
  std::string busy_source;  // empty: pct_of_peak is the bytes' share of the roof
};

enum class Bound { kUnknown, kMemory, kCompute, kLatency };
std::string_view BoundName(Bound bound);  // "memory-bound", ..., "unknown"

struct RooflineVerdict {
  Bound bound = Bound::kUnknown;
  // The roof that bounds the kernel: "DRAM", "L2", "L1", "FP32", "FP64", "FP16", "Tensor",
  // "SM" (busy pipes other than floating point), "memory" (a memory stage without a byte
  // roof, such as shared-memory wavefronts); empty when unknown.
  std::string limiter;
  // The limiter's utilisation (0-100) and how far the kernel is below that roof: 100/pct, the
  // speed-up the roof allows at the kernel's arithmetic intensity (1.0 = on the roof).
  std::optional<double> utilization_pct;
  std::optional<double> headroom;
  std::string reason;  // one sentence with the numbers that decided it
};

struct RooflineResult {
  // The launch, for titles.
  std::string kernel_name;  // demangled function name
  std::uint32_t profile_index = 0;
  std::array<std::int32_t, 3> grid{};
  std::array<std::int32_t, 3> block{};
  std::string chip;

  std::optional<double> duration_ns;
  std::array<FlopRate, 4> precisions;           // indexed by Precision
  std::array<Bandwidth, 3> levels;              // indexed by MemoryLevel
  std::optional<double> sm_throughput_pct;      // ncu's Compute (SM) Throughput
  std::optional<double> memory_throughput_pct;  // ncu's Memory Throughput
  RooflineVerdict verdict;
  std::vector<std::string> missing;  // metric names the result needed but did not find

  const FlopRate& rate(Precision p) const { return precisions[static_cast<int>(p)]; }
  const Bandwidth& level(MemoryLevel l) const { return levels[static_cast<int>(l)]; }
  // FLOPs of `p` per byte moved at `level`; unset without FLOPs (or tensor) or bytes.
  std::optional<double> Intensity(Precision p, MemoryLevel l) const;
  // The precision with the most FLOPs (FP32 when there are none): where the kernel's
  // points sit on the chart and in the text.
  Precision MainPrecision() const;
};

// Below this share of every roof, no unit is busy: the kernel waits (latency, too little
// parallelism, launch overhead). 60% is the threshold of Nsight Compute's own Speed Of Light
// rule ("achieved compute throughput and/or memory bandwidth below 60.0% of peak typically
// indicate latency issues"), which users compare our verdicts with. A unit above it is
// taken to bound the kernel; between units above it, the busiest.
inline constexpr double kBusyUnitThresholdPct = 60.0;

// Never fails: a kernel that was not measured, or lacks the duration, gets Bound::kUnknown
// and a reason that says what is missing.
RooflineResult ComputeRoofline(const metrics::KernelProfile& profile);

}  // namespace gpuscope::analysis::roofline
