// What metrics_kernels and many_kernels launch, shared by the programs and by the GPU tests
// and benchmarks that profile them (tests/gpu/profile_*, scripts/bench-profile.sh). A program
// and its test must never disagree about a name or a count. Plain C++: no CUDA header.
#pragma once

#include <array>
#include <string_view>

namespace gpuscope::examples::metrics {

// One kernel of metrics_kernels: its function name (what `-k` and `-k regex:` match, and
// what ncu's "function" kernel-name base prints) and how many times the program launches it.
struct KernelLaunches {
  std::string_view name;
  int launches;
};

// Every kernel whose name starts with "k_" is one the profile tests select (`-k regex:^k_`);
// the program's set-up kernels are named "init_*" so that no filter of the tests picks them.
// Kernels launched more than once read and write the same buffer each time, so a replay that
// did not restore device memory changes the checksums the program prints.
inline constexpr std::array<KernelLaunches, 10> kMetricsKernels = {{
    {"k_saxpy", 2},                 // memory-bound: y = a*x + y over 64 Mi floats
    {"k_fma_fp32", 2},              // compute-bound FP32: 8 independent FFMA chains per thread
    {"k_smem_bank_conflicts", 1},   // every shared load and store is a 32-way bank conflict
    {"k_uncoalesced_stride33", 1},  // loads 33 floats apart: one 32-byte sector per 4 bytes used
    {"k_dfma_fp64", 1},             // compute-bound FP64: DFMA chains
    {"k_register_heavy", 1},        // > 128 registers per thread: occupancy limited by registers
    {"k_divergent_branches", 1},    // lanes of a warp take different paths and trip counts
    {"k_tiny", 3},                  // one block of 32 threads
    {"k_local_spill", 1},           // a dynamically indexed per-thread array lives in local memory
    {"k_fp64_accumulator", 1},  // 13x13 convolution of floats summed in a double (reference 000)
}};

inline constexpr int kMetricsKernelLaunches = [] {
  int total = 0;
  for (const auto& kernel : kMetricsKernels) total += kernel.launches;
  return total;
}();

// Sizes, fixed so that every run launches the same work.
inline constexpr long kSaxpyElements = 64L << 20;    // 64 Mi floats per array (256 MiB)
inline constexpr long kStridedElements = 16L << 20;  // power of two: stride 33 permutes it
inline constexpr int kStride = 33;
inline constexpr int kComputeBlocks = 132 * 8;  // 8 blocks per SM of an H200
inline constexpr int kComputeThreads = 256;
inline constexpr int kFmaIterations = 4096;
inline constexpr int kDfmaIterations = 1024;
inline constexpr int kSmemWarpsPerBlock = 8;
inline constexpr int kSmemRounds = 64;
inline constexpr int kRegisterHeavyLiveValues = 160;  // floats kept live in registers
inline constexpr int kRegisterHeavyThreads = 128;
inline constexpr int kRegisterHeavyIterations = 64;
inline constexpr int kTinyThreads = 32;
inline constexpr int kLocalArrayElements = 64;
inline constexpr int kLocalRounds = 256;
inline constexpr int kImageSide = 1024;  // k_fp64_accumulator's image
inline constexpr int kMaskSide = 13;

// The lines the program prints: "checksum <kernel> <16 hex digits>" per kernel (of the
// buffer that kernel writes, after all launches) and "checksum all <16 hex digits>".
inline constexpr std::string_view kChecksumPrefix = "checksum ";

// many_kernels: kManyKernelsLaunches launches cycling through kManySmallKernelNames small
// kernels (k_small_0 ... k_small_7), except launch number kManyTargetLaunchIndex, which is
// the one launch of k_target. Prints "kernels <n>", "loop_ns <ns>", "total_ns <ns>" and a
// checksum line like metrics_kernels.
inline constexpr int kManyKernelsLaunches = 10000;
inline constexpr int kManySmallKernelNames = 8;
inline constexpr int kManyTargetLaunchIndex = kManyKernelsLaunches / 2;
inline constexpr std::string_view kManyTargetKernel = "k_target";

}  // namespace gpuscope::examples::metrics
