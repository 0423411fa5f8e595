// Synthetic reports of a multi-rank training job: one report per rank, written one at a time
// through the production ReportWriter (so memory stays bounded however many ranks and
// kernels), with known answers for the multi-rank analyses to recover.
//
// The model, in true time. Every rank runs `steps` steps. A step (NVTX range "step N"):
// the host launches `kernels_per_step` compute kernels (`gemm_kernel` and
// `elementwise_kernel` alternating, each with its cudaLaunchKernel call, correlated; durations
// `kernel_ns` and `kernel_ns / 4` with a small per-rank, per-kernel jitter from the seed) on the
// compute stream, then (with `nccl`) one all-reduce kernel (kNcclAllReduceKernel) on the
// communication stream, its launch call inside an NVTX range "ncclAllReduce" of domain "NCCL".
// A rank's all-reduce starts when the rank arrives (its compute is done); the straggler
// arrives `straggler_delay_ns` late in every step (its host launches the all-reduce that much
// later). All ranks' all-reduce kernels END together, at the latest arrival plus `kernel_ns`;
// the next step begins on every rank shortly after. Without `nccl` the steps keep the same
// timing but there is no collective in the reports.
//
// Then every time of a rank on host h (= rank / ranks_per_host) is shifted by
// host_clock_offset_ns[h] (0 for hosts past the end of the list): the clock error an
// alignment must recover. Each host has its own hostname ("node<h>") and boot id; its
// CLOCK_MONOTONIC_RAW counts from its own boot. Clock samples (the host pair, and from the
// first flush on the rank's device's GPU pair, GpuClockOffsetNs) are taken at the start, every
// 500 ms of trace and at the end, where the report is committed, as the injection does: cupti_ns and realtime_ns on the host's shifted clock,
// monotonic_ns on the host's boot clock (unshifted: true time minus boot time).
//
// Identity: rank r, local rank r % ranks_per_host (also its device id), world size `ranks`,
// rank variable "RANK", pid 30000 + r.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace gpuscope::store::testing {

struct RankReportsSpec {
  int ranks = 8;
  int ranks_per_host = 4;
  std::vector<std::int64_t>
      host_clock_offset_ns;  // per host, added to every time of that host's reports
  int steps = 10;
  int kernels_per_step = 20;
  std::int64_t kernel_ns = 50'000;
  int straggler_rank = -1;  // -1: none
  std::int64_t straggler_delay_ns = 0;
  bool nccl = true;
  std::uint64_t seed = 1;
  bool overwrite = false;  // replace existing reports in the directory
};

inline constexpr std::string_view kGemmKernel = "gemm_kernel";
inline constexpr std::string_view kElementwiseKernel = "elementwise_kernel";
inline constexpr std::string_view kNcclAllReduceKernel =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
// The stream ids of the compute kernels and of the all-reduce.
inline constexpr std::uint32_t kComputeStream = 7;
inline constexpr std::uint32_t kCommunicationStream = 13;

// The GPU pairs' GPU clock (Sample in rank_reports.cpp): gpu_ns - realtime_ns of a rank of
// local rank `local_rank`, `elapsed_ns` after its process started: 700 + 100 * local_rank ns,
// drifting by 2 ns per ms (2 ppm). The GPU read lies in a window of kGpuReadWindowNs.
inline constexpr std::int64_t kGpuReadWindowNs = 12'000;
inline std::int64_t GpuClockOffsetNs(int local_rank, std::int64_t elapsed_ns) {
  return 700 + 100 * static_cast<std::int64_t>(local_rank) + elapsed_ns / 500'000;
}

// The report of `rank` in `dir`: rank<N>.sqlite, N zero-padded to the width of the largest
// rank, so that the paths sort by rank.
std::string RankReportPath(const RankReportsSpec& spec, const std::string& dir, int rank);

// Writes the reports into `dir` (which must exist), rank by rank; their paths in rank order.
StatusOr<std::vector<std::string>> TryWriteRankReports(const RankReportsSpec& spec,
                                                       const std::string& dir);

// The same for tests: on an error it prints it on stderr and returns no paths.
std::vector<std::string> WriteRankReports(const RankReportsSpec& spec, const std::string& dir);

}  // namespace gpuscope::store::testing
