// What each example program launches, shared by the programs and by the GPU tests that
// check gpuscope's reports of them (tests/gpu). A program and its test must never disagree
// about a count or a name, so both read them from here. Plain C++: no CUDA header.
#pragma once

#include <cstddef>
#include <string_view>

namespace gpuscope::examples {

// Exit code of an example whose CUDA call failed (not 1, which crash_after uses on purpose).
inline constexpr int kExitCudaError = 3;
// Exit code of an example given arguments it does not understand.
inline constexpr int kExitUsage = 2;

// vector_add [N]: two HtoD copies, one kernel, one cudaDeviceSynchronize, one DtoH copy,
// three cudaMalloc and three cudaFree of N floats each.
inline constexpr long kVectorAddDefaultElements = 1 << 20;
inline constexpr int kVectorAddBlock = 256;
inline constexpr std::string_view kVectorAddKernel =
    "vectorAdd(float const*, float const*, float*, int)";

// add: the program of reference 002, unchanged.
inline constexpr std::string_view kAddKernel = "add(int, int, int*)";
inline constexpr std::string_view kAddStdout = "1 + 2 is 3";

// streams: per stream one async HtoD, one kernel, one async DtoH (pinned host memory); then
// one synchronous HtoD from pageable memory and one cudaMemset.
inline constexpr int kStreamCount = 4;
inline constexpr int kStreamChunkElements = 1 << 18;  // floats per stream
inline constexpr std::size_t kStreamChunkBytes = kStreamChunkElements * sizeof(float);
inline constexpr std::size_t kStreamPageableBytes = 3 * 1024 * 1024 + 4;  // a size no chunk has
inline constexpr std::size_t kStreamMemsetBytes = 512 * 1024 + 8;
inline constexpr int kStreamMemsetValue = 7;
inline constexpr int kStreamBlock = 128;
inline constexpr std::string_view kStreamKernel = "scaleChunk(float*, int, float)";

// nvtx_ranges: names of every range and mark it makes. Default-domain push/pop "outer"
// holds kNvtxInnerCount "inner" ranges; "cross_thread" is started on the main thread and
// ended on another; two marks; one push/pop range in the named domain. One kernel runs
// inside each inner range.
inline constexpr std::string_view kNvtxOuterRange = "outer";
inline constexpr std::string_view kNvtxInnerRange = "inner";
inline constexpr int kNvtxInnerCount = 2;
inline constexpr std::string_view kNvtxCrossThreadRange = "cross_thread";
inline constexpr std::string_view kNvtxMarkA = "mark_a";
inline constexpr std::string_view kNvtxMarkB = "mark_b";
inline constexpr std::string_view kNvtxDomain = "gpuscope-test";
inline constexpr std::string_view kNvtxDomainRange = "domain_range";
inline constexpr unsigned kNvtxOuterColor = 0xFF00A0F0u;  // ARGB given to "outer"
inline constexpr std::string_view kNvtxKernel = "nvtxWork(int*)";

// graph_replay: K kernels and one memset captured into one graph, launched R times.
inline constexpr int kGraphKernels = 5;
inline constexpr int kGraphLaunches = 10;
inline constexpr int kGraphElements = 4096;
inline constexpr std::string_view kGraphKernel = "graphStep(int*, int, int)";

// threads16: kThreads host threads, each with its own stream, launch kKernelsPerThread
// kernels at the same moment (a barrier releases them together).
inline constexpr int kThreads = 16;
inline constexpr int kKernelsPerThread = 50;
inline constexpr std::string_view kThreadKernel = "threadWork(int*, int)";

// child_system: the parent launches kParentKernels, then runs itself with "--child" through
// system(); the child launches kChildKernels.
inline constexpr int kParentKernels = 4;
inline constexpr int kChildKernels = 6;
inline constexpr std::string_view kChildArgument = "--child";
inline constexpr std::string_view kParentKernel = "parentKernel(int*)";
inline constexpr std::string_view kChildKernel = "childKernel(int*)";

// crash_after <abort|kill9|segv|illegal|exit0>: kCrashKernels kernels, a synchronize, a
// sleep longer than gpuscope's 500 ms flush period, then the chosen end. "illegal" launches
// one more kernel that writes to an invalid address and exits with kCrashIllegalExitCode.
inline constexpr int kCrashKernels = 1000;
inline constexpr int kCrashSleepMs = 1500;
inline constexpr int kCrashIllegalExitCode = 1;
inline constexpr std::string_view kCrashKernel = "crashKernel(int*)";

// timed_kernels: one untimed spin kernel (the blocker, long enough to cover the host's
// queueing), then kTimedKernelCount spin kernels timed by CUDA events, their target
// durations in microseconds below. All are spinKernel; in start order the blocker is first.
inline constexpr int kTimedKernelCount = 10;
inline constexpr int kTimedKernelTargetUs[kTimedKernelCount] = {100, 150, 200, 250, 300,
                                                                350, 400, 450, 500, 120};
inline constexpr std::string_view kTimedKernel = "spinKernel(unsigned long long)";
inline constexpr int kTimedBlockerUs = 5000;

// foreign_cupti_owner: kernels launched while the program itself holds CUPTI.
inline constexpr int kForeignKernels = 10;
inline constexpr std::string_view kForeignOkLine = "foreign_cupti_owner: ok";

// launch_loop [N]: N back-to-back tiny kernels, then one synchronize.
inline constexpr long kLaunchLoopDefault = 100000;
inline constexpr std::string_view kLaunchLoopKernel = "tinyKernel(int*)";

// profiler_start_stop: kernels before cudaProfilerStart, between Start and Stop, after Stop.
inline constexpr int kBeforeStartKernels = 3;
inline constexpr int kBetweenKernels = 5;
inline constexpr int kAfterStopKernels = 4;
inline constexpr std::string_view kBeforeStartKernel = "beforeStartKernel(int*)";
inline constexpr std::string_view kBetweenKernel = "betweenStartStopKernel(int*)";
inline constexpr std::string_view kAfterStopKernel = "afterStopKernel(int*)";

// sticky_error <illegal-abort|illegal-exit1|assert-abort>: kStickyMallocs cudaMalloc,
// kStickyCopies HtoD cudaMemcpy, kStickyKernels kernels and a cudaDeviceSynchronize that all
// succeed; then one kernel that faults (an illegal address, or a failed device-side assert), a
// cudaDeviceSynchronize that returns the sticky error, and the end the mode names (abort(), or
// exit(kStickyExitCode)). Nothing sleeps; its test sets a flush period longer than the run, so
// what the report holds was saved at the error or at the end, not by the periodic flush.
inline constexpr int kStickyMallocs = 3;
inline constexpr int kStickyCopies = 2;
inline constexpr int kStickyKernels = 100;
inline constexpr int kStickyExitCode = 1;
inline constexpr std::string_view kStickyKernel = "stickyWork(int*)";
inline constexpr std::string_view kStickyIllegalKernel = "stickyIllegalWrite(int*)";
inline constexpr std::string_view kStickyAssertKernel = "stickyFailedAssert(int const*)";

// rank_barriers --barrier-file PATH [ROUNDS]: one rank of a job of $WORLD_SIZE processes
// on one GPU, its rank in $RANK (as torchrun sets them). The ranks meet at host barriers
// (a counter per barrier in a file all of them map); before each barrier every rank works
// for a time of its own (kRankWorkKernel, then rank * kRankStaggerMs of sleep), so they
// arrive at different times and leave together; right after each barrier every rank
// launches kRankMarkerKernel, so that those launch calls are simultaneous across the
// reports. kRankBarrierRounds barriers by default, after a first one that waits for every
// rank's CUDA to be ready.
inline constexpr int kRankBarrierRounds = 8;
inline constexpr int kRankStaggerMs = 3;
inline constexpr std::string_view kRankMarkerKernel = "rankMarker(int, int*)";
inline constexpr std::string_view kRankWorkKernel = "rankWork(float*, int, int)";
inline constexpr std::string_view kRankBarrierFileArgument = "--barrier-file";

// range_kernels (`profile --replay-mode app-range`): one warm-up launch, then a
// cudaProfilerStart/Stop range of kRangeProfilerKernels dependent launches, then an NVTX
// push/pop range kRangeNvtxName of kRangeNvtxKernels, then one launch after both. In launch
// order from 0: warm-up 0, the profiler range 1..3, the NVTX range 4..7, the last 8.
inline constexpr int kRangeProfilerKernels = 3;
inline constexpr int kRangeNvtxKernels = 4;
inline constexpr std::string_view kRangeNvtxName = "dependent_steps";

}  // namespace gpuscope::examples
