// GPU tests of the single-process CUDA C++ examples: each runs under the real `gpuscope run`,
// and its report must hold exactly what the program knows it launched (expected_counts.h):
// counts, demangled names, launch geometry, bytes, copy and memory kinds, streams, graph
// ids, NVTX ranges, threads and timings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "expected_counts.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;
using model::CopyKind;
using model::MemoryKind;

// Whether some API call with the kernel's correlation id launched it.
bool HasLaunchCall(const Report& report, const Kernel& kernel) {
  return std::any_of(report.api_calls.begin(), report.api_calls.end(), [&](const ApiCall& call) {
    return call.record.correlation_id == kernel.record.correlation_id &&
           call.name.find("LaunchKernel") != std::string::npos;
  });
}

void ExpectGeometry(const Kernel& kernel, int gx, int gy, int gz, int bx, int by, int bz) {
  const auto& r = kernel.record;
  EXPECT_EQ(std::vector<int>({r.grid_x, r.grid_y, r.grid_z}), std::vector<int>({gx, gy, gz}))
      << kernel.name << " grid";
  EXPECT_EQ(std::vector<int>({r.block_x, r.block_y, r.block_z}), std::vector<int>({bx, by, bz}))
      << kernel.name << " block";
}

TEST(GpuVectorAdd, EveryCopyKernelAllocationAndCallIsRecorded) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("vector_add")}, 0, run, report));
  const long n = ex::kVectorAddDefaultElements;
  const std::uint64_t bytes = n * sizeof(float);
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"vector_add: 1048576 elements ok"}))
      << run.result.out;

  ASSERT_EQ(report.kernels.size(), 1u);
  const Kernel& kernel = report.kernels[0];
  EXPECT_EQ(kernel.name, ex::kVectorAddKernel);
  EXPECT_NE(kernel.mangled, kernel.name) << "the mangled name is kept too";
  ExpectGeometry(kernel, (n + ex::kVectorAddBlock - 1) / ex::kVectorAddBlock, 1, 1,
                 ex::kVectorAddBlock, 1, 1);
  EXPECT_GT(kernel.record.registers_per_thread, 0);
  EXPECT_TRUE(HasLaunchCall(report, kernel)) << "no launch call shares the kernel's correlation id";

  int htod = 0, dtoh = 0;
  for (const auto& copy : report.memcpys) {
    EXPECT_EQ(copy.bytes, bytes);
    EXPECT_FALSE(copy.is_async);
    if (copy.copy_kind == CopyKind::kHtoD) {
      ++htod;
      EXPECT_EQ(copy.src_kind, MemoryKind::kPageable);
      EXPECT_EQ(copy.dst_kind, MemoryKind::kDevice);
    } else if (copy.copy_kind == CopyKind::kDtoH) {
      ++dtoh;
      EXPECT_EQ(copy.src_kind, MemoryKind::kDevice);
      EXPECT_EQ(copy.dst_kind, MemoryKind::kPageable);
    }
  }
  EXPECT_EQ(report.memcpys.size(), 3u);
  EXPECT_EQ(htod, 2);
  EXPECT_EQ(dtoh, 1);
  // The kernel ran between the copies in, and the copy out.
  for (const auto& copy : report.memcpys) {
    if (copy.copy_kind == CopyKind::kHtoD) {
      EXPECT_LE(copy.end, kernel.record.start);
    } else {
      EXPECT_GE(copy.start, kernel.record.end);
    }
  }

  std::set<std::uint64_t> allocated;
  int frees = 0;
  for (const auto& memory : report.memory) {
    if (memory.op == model::MemoryOp::kAlloc && memory.bytes == bytes) {
      allocated.insert(memory.address);
      EXPECT_EQ(memory.memory_kind, MemoryKind::kDevice);
    }
  }
  for (const auto& memory : report.memory) {
    if (memory.op == model::MemoryOp::kFree && allocated.count(memory.address)) ++frees;
  }
  EXPECT_EQ(allocated.size(), 3u) << "cudaMalloc of " << bytes << " bytes";
  EXPECT_EQ(frees, 3) << "cudaFree of the three buffers";

  EXPECT_EQ(std::count_if(report.syncs.begin(), report.syncs.end(),
                          [](const model::SyncRecord& s) {
                            return s.kind == model::SyncKind::kContextSynchronize;
                          }),
            1)
      << "cudaDeviceSynchronize";
  EXPECT_EQ(report.CountApiCalls("cudaMalloc"), 3);
  EXPECT_EQ(report.CountApiCalls("cudaMemcpy"), 3);
  EXPECT_EQ(report.CountApiCalls("cudaLaunchKernel"), 1);
  EXPECT_EQ(report.CountApiCalls("cudaDeviceSynchronize"), 1);
  EXPECT_EQ(report.CountApiCalls("cudaFree"), 3);
  for (const auto& call : report.api_calls) {
    EXPECT_LE(call.record.start, call.record.end) << call.name;
    EXPECT_EQ(call.name.find("_v"), std::string::npos) << call.name << " keeps CUPTI's suffix";
  }
}

TEST(GpuVectorAdd, ProgramExitCodeAndOutputPassThrough) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("vector_add"), "not-a-number"});
  EXPECT_TRUE(EndedWithExitCode(run, ex::kExitUsage));
  EXPECT_TRUE(HasLineWithAll(run.result.err, {"usage: vector_add"})) << run.result.err;

  ScratchDir small_dir;
  TracedRun small = RunUnderGpuscope(small_dir, {ExampleBinary("vector_add"), "1000"});
  EXPECT_TRUE(EndedWithExitCode(small, 0));
  EXPECT_TRUE(HasLineWithAll(small.result.out, {"vector_add: 1000 elements ok"}))
      << "program stdout: " << small.result.out;
  EXPECT_FALSE(HasLineWithAll(small.result.err, {"elements ok"}))
      << "the program's stdout leaked into stderr";
}

TEST(GpuAdd, ReferenceProgramIsRecorded) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("add")}, 0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {ex::kAddStdout})) << run.result.out;

  ASSERT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(report.kernels[0].name, ex::kAddKernel);
  ExpectGeometry(report.kernels[0], 1, 1, 1, 1, 1, 1);
  ASSERT_EQ(report.memcpys.size(), 1u);
  EXPECT_EQ(report.memcpys[0].copy_kind, CopyKind::kDtoH);
  EXPECT_EQ(report.memcpys[0].bytes, sizeof(int));
  EXPECT_TRUE(report.memsets.empty());
  EXPECT_EQ(report.CountApiCalls("cudaMalloc"), 1);
  EXPECT_EQ(report.CountApiCalls("cudaLaunchKernel"), 1);
  EXPECT_EQ(report.CountApiCalls("cudaMemcpy"), 1);
  EXPECT_EQ(report.CountApiCalls("cudaFree"), 1);
}

// What reference 002 shows nvprof printing for this program.
TEST(GpuAdd, SummaryOnStderrLooksLikeNvprof) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("add")});
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  const std::string& err = run.result.err;
  const std::regex header(R"(^\s*Type\s+Time\(%\)\s+Time\s+Calls\s+Avg\s+Min\s+Max\s+Name\s*$)");
  bool has_header = false;
  std::istringstream lines(err);
  for (std::string line; std::getline(lines, line);) has_header |= std::regex_match(line, header);
  EXPECT_TRUE(has_header) << "no nvprof column header in:\n" << err;
  EXPECT_TRUE(HasLineWithAll(err, {"GPU activities:"})) << err;
  EXPECT_TRUE(HasLineWithAll(err, {"%", std::string(ex::kAddKernel)})) << err;
  EXPECT_TRUE(HasLineWithAll(err, {"%", "[CUDA memcpy DtoH]"})) << err;
  EXPECT_TRUE(HasLineWithAll(err, {"API calls:"})) << err;
  EXPECT_TRUE(HasLineWithAll(err, {"%", "cudaMalloc"})) << err;
  EXPECT_FALSE(HasLineWithAll(run.result.out, {"GPU activities:"}))
      << "the summary must not go to the program's stdout";
}

TEST(GpuStreams, FourStreamsWithAsyncPinnedCopiesAPageableCopyAndAMemset) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("streams")}, 0, run, report));

  ASSERT_EQ(report.kernels.size(), static_cast<size_t>(ex::kStreamCount));
  std::set<std::uint32_t> kernel_streams;
  for (const auto& kernel : report.kernels) {
    EXPECT_EQ(kernel.name, ex::kStreamKernel);
    ExpectGeometry(kernel, ex::kStreamChunkElements / ex::kStreamBlock, 1, 1, ex::kStreamBlock, 1,
                   1);
    kernel_streams.insert(kernel.record.stream_id);
  }
  EXPECT_EQ(kernel_streams.size(), static_cast<size_t>(ex::kStreamCount)) << "one stream each";

  std::map<std::uint32_t, int> htod_per_stream, dtoh_per_stream;
  int pageable_copies = 0;
  for (const auto& copy : report.memcpys) {
    if (copy.bytes == ex::kStreamChunkBytes) {
      EXPECT_TRUE(copy.is_async);
      EXPECT_TRUE(kernel_streams.count(copy.stream_id)) << "async copy on a stream without kernel";
      if (copy.copy_kind == CopyKind::kHtoD) {
        ++htod_per_stream[copy.stream_id];
        EXPECT_EQ(copy.src_kind, MemoryKind::kPinned);
        EXPECT_EQ(copy.dst_kind, MemoryKind::kDevice);
      } else {
        EXPECT_EQ(copy.copy_kind, CopyKind::kDtoH);
        ++dtoh_per_stream[copy.stream_id];
        EXPECT_EQ(copy.src_kind, MemoryKind::kDevice);
        EXPECT_EQ(copy.dst_kind, MemoryKind::kPinned);
      }
    } else {
      EXPECT_EQ(copy.bytes, ex::kStreamPageableBytes) << "a copy of unexpected size";
      ++pageable_copies;
      EXPECT_EQ(copy.copy_kind, CopyKind::kHtoD);
      EXPECT_EQ(copy.src_kind, MemoryKind::kPageable);
      EXPECT_FALSE(copy.is_async);
      EXPECT_FALSE(kernel_streams.count(copy.stream_id)) << "sync copy on one of the 4 streams";
    }
  }
  EXPECT_EQ(report.memcpys.size(), static_cast<size_t>(2 * ex::kStreamCount + 1));
  EXPECT_EQ(pageable_copies, 1);
  for (std::uint32_t stream : kernel_streams) {
    EXPECT_EQ(htod_per_stream[stream], 1) << "stream " << stream;
    EXPECT_EQ(dtoh_per_stream[stream], 1) << "stream " << stream;
  }
  // Each stream's copy in, kernel and copy out ran in that order.
  for (const auto& kernel : report.kernels) {
    for (const auto& copy : report.memcpys) {
      if (copy.stream_id != kernel.record.stream_id) continue;
      if (copy.copy_kind == CopyKind::kHtoD) {
        EXPECT_LE(copy.end, kernel.record.start);
      } else if (copy.copy_kind == CopyKind::kDtoH) {
        EXPECT_GE(copy.start, kernel.record.end);
      }
    }
  }

  ASSERT_EQ(report.memsets.size(), 1u);
  EXPECT_EQ(report.memsets[0].bytes, ex::kStreamMemsetBytes);
  EXPECT_EQ(report.memsets[0].value, static_cast<std::uint32_t>(ex::kStreamMemsetValue));
  EXPECT_EQ(report.memsets[0].memory_kind, MemoryKind::kDevice);

  std::map<std::uint32_t, int> stream_syncs;
  for (const auto& sync : report.syncs) {
    if (sync.kind == model::SyncKind::kStreamSynchronize) ++stream_syncs[sync.stream_id];
  }
  for (std::uint32_t stream : kernel_streams) EXPECT_EQ(stream_syncs[stream], 1) << stream;
}

TEST(GpuNvtx, RangesMarksAndDomainsAreRecorded) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("nvtx_ranges")}, 0, run, report));
  EXPECT_EQ(report.CountKernels(ex::kNvtxKernel), ex::kNvtxInnerCount);
  EXPECT_EQ(report.reader->counters().unfinished_nvtx_ranges, 0u);

  std::map<std::string, std::vector<Nvtx>> by_name;
  for (const auto& row : report.nvtx) by_name[row.name].push_back(row);
  EXPECT_EQ(report.nvtx.size(), static_cast<size_t>(5 + ex::kNvtxInnerCount))
      << "outer, inners, cross_thread, two marks, domain_range";

  ASSERT_EQ(by_name[std::string(ex::kNvtxOuterRange)].size(), 1u);
  const Nvtx& outer = by_name[std::string(ex::kNvtxOuterRange)][0];
  EXPECT_EQ(outer.record.kind, model::NvtxKind::kPushPopRange);
  EXPECT_EQ(outer.domain, "");
  EXPECT_EQ(outer.record.color, ex::kNvtxOuterColor);
  EXPECT_GT(outer.record.end, outer.record.start);

  const auto& inners = by_name[std::string(ex::kNvtxInnerRange)];
  ASSERT_EQ(inners.size(), static_cast<size_t>(ex::kNvtxInnerCount));
  for (const auto& inner : inners) {
    EXPECT_EQ(inner.record.kind, model::NvtxKind::kPushPopRange);
    EXPECT_EQ(inner.record.thread_id, outer.record.thread_id);
    EXPECT_GE(inner.record.start, outer.record.start) << "inner starts inside outer";
    EXPECT_LE(inner.record.end, outer.record.end) << "inner ends inside outer";
  }
  // Host and GPU times share one clock: each kernel launch lies inside an inner range.
  for (const auto& call : report.api_calls) {
    if (call.name != "cudaLaunchKernel") continue;
    EXPECT_TRUE(std::any_of(inners.begin(), inners.end(),
                            [&](const Nvtx& inner) {
                              return inner.record.start <= call.record.start &&
                                     call.record.end <= inner.record.end;
                            }))
        << "cudaLaunchKernel at " << call.record.start << " is outside every inner range";
  }

  ASSERT_EQ(by_name[std::string(ex::kNvtxCrossThreadRange)].size(), 1u);
  const Nvtx& cross = by_name[std::string(ex::kNvtxCrossThreadRange)][0];
  EXPECT_EQ(cross.record.kind, model::NvtxKind::kStartEndRange);
  EXPECT_GE(cross.record.end, cross.record.start + 2'000'000) << "ended 2 ms later, elsewhere";

  for (std::string_view mark_name : {ex::kNvtxMarkA, ex::kNvtxMarkB}) {
    const auto& marks = by_name[std::string(mark_name)];
    ASSERT_EQ(marks.size(), 1u) << mark_name;
    EXPECT_EQ(marks[0].record.kind, model::NvtxKind::kMark) << mark_name;
    EXPECT_EQ(marks[0].record.end, marks[0].record.start) << mark_name;
    EXPECT_EQ(marks[0].domain, "") << mark_name;
  }
  const Nvtx& mark_a = by_name[std::string(ex::kNvtxMarkA)][0];
  EXPECT_GE(mark_a.record.start, outer.record.start);
  EXPECT_LE(mark_a.record.start, outer.record.end);

  ASSERT_EQ(by_name[std::string(ex::kNvtxDomainRange)].size(), 1u);
  const Nvtx& domain_range = by_name[std::string(ex::kNvtxDomainRange)][0];
  EXPECT_EQ(domain_range.domain, ex::kNvtxDomain);
  EXPECT_EQ(domain_range.record.kind, model::NvtxKind::kPushPopRange);
  EXPECT_GE(domain_range.record.end, domain_range.record.start + 1'000'000);
}

TEST(GpuGraph, EveryReplayedKernelAndMemsetCarriesTheGraphId) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("graph_replay")}, 0, run, report));

  ASSERT_EQ(report.kernels.size(), static_cast<size_t>(ex::kGraphKernels * ex::kGraphLaunches));
  std::set<std::uint32_t> graph_ids;
  std::set<std::uint64_t> node_ids;
  for (const auto& kernel : report.kernels) {
    EXPECT_EQ(kernel.name, ex::kGraphKernel);
    EXPECT_NE(kernel.record.graph_id, 0u) << "kernel from a graph launch without graph id";
    graph_ids.insert(kernel.record.graph_id);
    node_ids.insert(kernel.record.graph_node_id);
  }
  EXPECT_EQ(graph_ids.size(), 1u) << "one instantiated graph";
  EXPECT_EQ(node_ids.size(), static_cast<size_t>(ex::kGraphKernels)) << "one node per kernel";

  ASSERT_EQ(report.memsets.size(), static_cast<size_t>(ex::kGraphLaunches));
  for (const auto& memset : report.memsets) {
    EXPECT_EQ(memset.bytes, ex::kGraphElements * sizeof(int));
    EXPECT_NE(memset.graph_id, 0u);
    if (!graph_ids.empty()) {
      EXPECT_EQ(memset.graph_id, *graph_ids.begin());
    }
  }
  EXPECT_EQ(report.CountApiCalls("cudaGraphLaunch"), ex::kGraphLaunches);
}

TEST(GpuThreads, SixteenThreadsLaunchingAtOnceLoseNothing) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("threads16")}, 0, run, report));
  const int total = ex::kThreads * ex::kKernelsPerThread;
  ASSERT_EQ(report.CountKernels(ex::kThreadKernel), total);
  EXPECT_EQ(report.kernels.size(), static_cast<size_t>(total));

  std::map<std::uint32_t, int> per_stream;
  std::map<std::uint32_t, std::uint32_t> stream_of_correlation;
  for (const auto& kernel : report.kernels) {
    ++per_stream[kernel.record.stream_id];
    stream_of_correlation[kernel.record.correlation_id] = kernel.record.stream_id;
  }
  EXPECT_EQ(per_stream.size(), static_cast<size_t>(ex::kThreads));
  for (const auto& [stream, count] : per_stream) {
    EXPECT_EQ(count, ex::kKernelsPerThread) << "stream " << stream;
  }

  std::map<std::uint32_t, int> launches_per_thread;
  std::map<std::uint32_t, std::set<std::uint32_t>> streams_per_thread;
  for (const auto& call : report.api_calls) {
    if (call.name != "cudaLaunchKernel") continue;
    ++launches_per_thread[call.record.thread_id];
    auto stream = stream_of_correlation.find(call.record.correlation_id);
    if (stream != stream_of_correlation.end()) {
      streams_per_thread[call.record.thread_id].insert(stream->second);
    }
  }
  EXPECT_EQ(launches_per_thread.size(), static_cast<size_t>(ex::kThreads)) << "distinct threads";
  for (const auto& [thread, count] : launches_per_thread) {
    EXPECT_EQ(count, ex::kKernelsPerThread) << "thread " << thread;
    EXPECT_EQ(streams_per_thread[thread].size(), 1u) << "thread " << thread << " has one stream";
  }
}

// Kernel durations agree with CUDA events around the same kernels. A pair of events brackets
// more than the kernel: the GPU's front end records the first event, launches the kernel,
// waits for it to drain and records the second. On the H200 that adds a steady 2.4-3.0 us
// (measured with a bare CUPTI consumer, no gpuscope involved: 2.7-3.0% of a 100 us kernel,
// 0.5% of a 500 us one). So every kernel must lie inside its bracket with at most
// kMaxBracketOverheadUs to spare, and kernels long enough for that overhead to be under 2%
// (kMinKernelUsForTwoPercent and up) must agree with their events within 2%.
constexpr double kMaxBracketOverheadUs = 4.0;
constexpr double kEventResolutionUs = 0.5;  // cudaEventElapsedTime's documented resolution
constexpr double kMinKernelUsForTwoPercent = 200.0;

TEST(GpuTiming, KernelDurationsMatchCudaEvents) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("timed_kernels")}, 0, run, report));

  std::map<int, double> event_us;
  std::istringstream lines(run.result.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string tag;
    int index = -1;
    double us = 0;
    if (words >> tag >> index >> us && tag == "event_us") event_us[index] = us;
  }
  ASSERT_EQ(event_us.size(), static_cast<size_t>(ex::kTimedKernelCount)) << run.result.out;

  std::vector<Kernel> spins = report.KernelsNamed(ex::kTimedKernel);
  ASSERT_EQ(spins.size(), static_cast<size_t>(ex::kTimedKernelCount + 1)) << "blocker + timed";
  std::sort(spins.begin(), spins.end(),
            [](const Kernel& a, const Kernel& b) { return a.record.start < b.record.start; });
  int checked_within_two_percent = 0;
  for (int i = 0; i < ex::kTimedKernelCount; ++i) {
    const Kernel& kernel = spins[i + 1];  // spins[0] is the untimed blocker
    const double kernel_us = (kernel.record.end - kernel.record.start) / 1000.0;
    const double events = event_us[i];
    const std::string what = "kernel " + std::to_string(i) + ": gpuscope " +
                             std::to_string(kernel_us) + " us, CUDA events " +
                             std::to_string(events) + " us";
    EXPECT_GE(kernel_us, ex::kTimedKernelTargetUs[i]) << what << " (it spins at least its target)";
    EXPECT_LE(kernel_us, events + kEventResolutionUs) << what << " (longer than its bracket)";
    EXPECT_LE(events - kernel_us, kMaxBracketOverheadUs) << what;
    if (events >= kMinKernelUsForTwoPercent) {
      EXPECT_NEAR(kernel_us, events, 0.02 * events) << what;
      ++checked_within_two_percent;
    }
  }
  EXPECT_GE(checked_within_two_percent, 5) << "expected_counts.h should keep most kernels long";
}

TEST(GpuLaunchLoop, HundredThousandKernelsAreHundredThousandRows) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("launch_loop")}, 0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"kernels 100000"})) << run.result.out;
  EXPECT_EQ(report.CountKernels(ex::kLaunchLoopKernel), ex::kLaunchLoopDefault);
  EXPECT_EQ(report.kernels.size(), static_cast<size_t>(ex::kLaunchLoopDefault));
  EXPECT_EQ(report.CountApiCalls("cudaLaunchKernel"), ex::kLaunchLoopDefault);
  std::set<std::uint32_t> correlation_ids;
  for (const auto& kernel : report.kernels) correlation_ids.insert(kernel.record.correlation_id);
  EXPECT_EQ(correlation_ids.size(), report.kernels.size()) << "each kernel row is its own launch";
}

}  // namespace
}  // namespace gpuscope::gpu_test
