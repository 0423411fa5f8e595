// The printers on real reports: two processes' reports written with the production
// ReportWriter, read back with ReportReader, printed together. Expected texts are written
// by hand from the rows below.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../support/json_checker.h"
#include "analysis/collection_warnings.h"
#include "analysis/stats_reports.h"
#include "render/api_trace.h"
#include "render/gpu_trace.h"
#include "render/nvprof_summary.h"
#include "render/stats_report.h"
#include "store/report_finalizer.h"
#include "store/report_reader.h"
#include "store/report_writer.h"

namespace gpuscope::analysis {
namespace {

using render::OutputOptions;
using render::StatsFormat;
using render::WriteApiTrace;
using render::WriteGpuTrace;
using render::WriteNvprofSummary;
using render::WriteStatsReport;

using model::ApiDomain;
using model::CopyKind;
using model::MemoryKind;

constexpr std::uint64_t kPrinterT0 = 1'760'000'000'000'000'000;

model::Timestamp FixedClock() { return kPrinterT0 + 2'500'000'000; }

class Report {
 public:
  explicit Report(const std::string& path) {
    auto writer = store::ReportWriter::Create(path, /*overwrite=*/true);
    EXPECT_TRUE(writer.ok()) << writer.status().message();
    writer_ = std::move(writer.value());
    writer_->set_clock(FixedClock);
  }

  store::ReportWriter& writer() { return *writer_; }

  void Process(std::uint32_t pid) {
    model::ProcessRecord process;
    process.pid = pid;
    process.parent_pid = 1;
    process.hostname = "node1";
    process.command_line = "./app";
    process.start = kPrinterT0;
    writer_->OnProcess(process);
    model::DeviceRecord device;
    device.id = 0;
    device.name = "NVIDIA H200";
    device.uuid = "GPU-5d8e4f0a";
    writer_->OnDevice(device);
  }

  void Kernel(std::string_view mangled, std::uint64_t start, std::uint64_t duration,
              std::uint32_t correlation, std::uint32_t stream = 7) {
    model::KernelRecord kernel;
    kernel.start = start == 0 ? 0 : kPrinterT0 + start;
    kernel.end = start == 0 ? 0 : kPrinterT0 + start + duration;
    kernel.context_id = 1;
    kernel.stream_id = stream;
    kernel.correlation_id = correlation;
    kernel.grid_x = kernel.grid_y = kernel.grid_z = 1;
    kernel.block_x = 256;
    kernel.block_y = kernel.block_z = 1;
    kernel.registers_per_thread = 16;
    kernel.mangled_name = mangled;
    writer_->OnKernel(kernel);
  }

  void Api(ApiDomain domain, std::string_view name, std::uint64_t start, std::uint64_t end,
           bool nested = false) {
    model::ApiCallRecord call;
    call.domain = domain;
    call.name = name;
    call.start = kPrinterT0 + start;
    call.end = kPrinterT0 + end;
    writer_->OnApiCall(call, nested);
  }

  void Close() { ASSERT_TRUE(writer_->Close().ok()) << writer_->status().message(); }

 private:
  std::unique_ptr<store::ReportWriter> writer_;
};

class ReportPrintersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/gpuscope_analysis_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    dir_ = pattern;
    WriteRank0(dir_ + "/rank0.sqlite");
    WriteRank1(dir_ + "/rank1.sqlite");
    rank0_ = Open(dir_ + "/rank0.sqlite");
    rank1_ = Open(dir_ + "/rank1.sqlite");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::unique_ptr<store::ReportReader> Open(const std::string& path) {
    auto reader = store::ReportReader::Open(path);
    EXPECT_TRUE(reader.ok()) << reader.status().message();
    return reader.ok() ? std::move(reader.value()) : nullptr;
  }

  // Rank 0: the add program of reference 002, launched twice, plus a memset, a copy, an
  // untimed kernel, a driver call made inside a runtime call and an NVTX range.
  static void WriteRank0(const std::string& path) {
    Report report(path);
    report.Process(100);
    report.Kernel("_Z3addiiPi", 1'000'000, 3'424, 11);
    report.Kernel("_Z3addiiPi", 2'000'000, 3'576, 13);
    report.Kernel("_Z3addiiPi", 0, 0, 14);  // CUPTI could not time it
    model::MemcpyRecord copy;
    copy.start = kPrinterT0 + 1'500'000;
    copy.end = copy.start + 2'656;
    copy.copy_kind = CopyKind::kDtoH;
    copy.src_kind = MemoryKind::kDevice;
    copy.dst_kind = MemoryKind::kPageable;
    copy.bytes = 4;
    copy.context_id = 1;
    copy.stream_id = 7;
    copy.correlation_id = 12;
    report.writer().OnMemcpy(copy);
    model::MemsetRecord memset;
    memset.start = kPrinterT0 + 500'000;
    memset.end = memset.start + 1'000;
    memset.bytes = 1024;
    memset.memory_kind = MemoryKind::kDevice;
    memset.context_id = 1;
    memset.stream_id = 7;
    memset.correlation_id = 10;
    report.writer().OnMemset(memset);
    report.Api(ApiDomain::kDriver, "cuInit", 10'000, 60'000);
    report.Api(ApiDomain::kRuntime, "cudaMalloc", 100'000, 400'000);
    report.Api(ApiDomain::kRuntime, "cudaLaunchKernel", 990'000, 995'000);
    report.Api(ApiDomain::kDriver, "cuLaunchKernel", 991'000, 994'000, /*nested=*/true);
    report.Api(ApiDomain::kRuntime, "cudaMemcpy", 1'400'000, 1'600'000);
    report.Api(ApiDomain::kRuntime, "cudaLaunchKernel", 1'990'000, 1'997'000);
    model::NvtxRecord range;
    range.kind = model::NvtxKind::kPushPopRange;
    range.start = kPrinterT0 + 900'000;
    range.end = kPrinterT0 + 2'100'000;
    range.name = "step";
    report.writer().OnNvtx(range);
    model::CollectionCounters counters;
    counters.dropped_records = 5;
    counters.kernels_without_timestamp = 1;
    report.writer().OnCounters(counters);
    report.Close();
  }

  // Rank 1: the same kernel under its own string ids, and an extern "C" kernel.
  static void WriteRank1(const std::string& path) {
    Report report(path);
    report.Process(101);
    report.Kernel("scale", 1'800'000, 10'000, 5, 13);
    report.Kernel("_Z3addiiPi", 1'200'000, 4'000, 3, 13);
    report.Api(ApiDomain::kRuntime, "cudaLaunchKernel", 1'190'000, 1'199'000);
    report.Api(ApiDomain::kRuntime, "cudaLaunchKernel", 1'790'000, 1'792'000);
    report.Close();
  }

  Reports Both() const { return {rank0_.get(), rank1_.get()}; }

  std::string dir_;
  std::unique_ptr<store::ReportReader> rank0_;
  std::unique_ptr<store::ReportReader> rank1_;
};

TEST_F(ReportPrintersTest, SummaryAggregatesBothReports) {
  std::ostringstream out;
  ASSERT_TRUE(WriteNvprofSummary(Both(), {}, out).ok());
  const char* expected =
      // clang-format off
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
      " GPU activities:   44.61%  11.000us         3  3.6667us  3.4240us  4.0000us  add(int, int, int*)\n"
      "                   40.56%  10.000us         1  10.000us  10.000us  10.000us  scale\n"
      "                   10.77%  2.6560us         1  2.6560us  2.6560us  2.6560us  [CUDA memcpy DtoH]\n"
      "                    4.06%  1.0000us         1  1.0000us  1.0000us  1.0000us  [CUDA memset]\n"
      "      API calls:   52.36%  300.00us         1  300.00us  300.00us  300.00us  cudaMalloc\n"
      "                   34.90%  200.00us         1  200.00us  200.00us  200.00us  cudaMemcpy\n"
      "                    8.73%  50.000us         1  50.000us  50.000us  50.000us  cuInit\n"
      "                    4.01%  23.000us         4  5.7500us  2.0000us  9.0000us  cudaLaunchKernel\n";
  // clang-format on
  EXPECT_EQ(out.str(), expected);
}

TEST_F(ReportPrintersTest, SummaryWithMangledNames) {
  OutputOptions options;
  options.demangle = false;
  options.api_calls = false;
  std::ostringstream out;
  ASSERT_TRUE(WriteNvprofSummary({rank1_.get()}, options, out).ok());
  EXPECT_EQ(
      out.str(),
      "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
      " GPU activities:   71.43%  10.000us         1  10.000us  10.000us  10.000us  scale\n"
      "                   28.57%  4.0000us         1  4.0000us  4.0000us  4.0000us  _Z3addiiPi\n");
}

TEST_F(ReportPrintersTest, GpuTraceMergesReportsInStartOrder) {
  std::ostringstream out;
  ASSERT_TRUE(WriteGpuTrace(Both(), {}, out).ok());
  const char* expected =
      // clang-format off
      "   Start  Duration            Grid Size      Block Size     Regs*    SSMem*    DSMem*      Size  Throughput  SrcMemType  DstMemType           Device   Context    Stream  Name\n"
      "       -         -              (1 1 1)       (256 1 1)        16        0B        0B         -           -           -           -  NVIDIA H200 (0)         1         7  add(int, int, int*) [14]\n"
      "500.00us  1.0000us                    -               -         -         -         -  1.0000KB  976.56MB/s      Device           -  NVIDIA H200 (0)         1         7  [CUDA memset]\n"
      "1.0000ms  3.4240us              (1 1 1)       (256 1 1)        16        0B        0B         -           -           -           -  NVIDIA H200 (0)         1         7  add(int, int, int*) [11]\n"
      "1.2000ms  4.0000us              (1 1 1)       (256 1 1)        16        0B        0B         -           -           -           -  NVIDIA H200 (0)         1        13  add(int, int, int*) [3]\n"
      "1.5000ms  2.6560us                    -               -         -         -         -        4B  1.4363MB/s      Device    Pageable  NVIDIA H200 (0)         1         7  [CUDA memcpy DtoH]\n"
      "1.8000ms  10.000us              (1 1 1)       (256 1 1)        16        0B        0B         -           -           -           -  NVIDIA H200 (0)         1        13  scale [5]\n"
      "2.0000ms  3.5760us              (1 1 1)       (256 1 1)        16        0B        0B         -           -           -           -  NVIDIA H200 (0)         1         7  add(int, int, int*) [13]\n"
      "\n"
      "Regs: Number of registers used per CUDA thread. This number includes registers used internally by the CUDA driver and/or tools and can be more than what the compiler shows.\n"
      "SSMem: Static shared memory allocated per CUDA block.\n"
      "DSMem: Dynamic shared memory allocated per CUDA block.\n"
      "SrcMemType: The type of source memory accessed by memory operation/copy\n"
      "DstMemType: The type of destination memory accessed by memory operation/copy\n";
  // clang-format on
  EXPECT_EQ(out.str(), expected);
}

// Both traces measure from the profiling start (nvprof's), so a kernel starts after the
// call that launched it, not at 0 like it.
TEST_F(ReportPrintersTest, BothTracesShareTheProfilingStartAsTheirZero) {
  std::string path = dir_ + "/late.sqlite";
  {
    Report report(path);
    report.Process(102);  // tracing starts at kPrinterT0
    report.Api(ApiDomain::kRuntime, "cudaLaunchKernel", 300'000, 305'000);
    report.Kernel("scale", 310'000, 10'000, 1);
    report.Close();
  }
  std::unique_ptr<store::ReportReader> late = Open(path);
  ASSERT_NE(late, nullptr);
  std::ostringstream api;
  ASSERT_TRUE(WriteApiTrace({late.get()}, {}, api).ok());
  EXPECT_EQ(api.str(),
            "   Start  Duration  Name\n"
            "300.00us  5.0000us  cudaLaunchKernel\n");
  std::ostringstream gpu;
  ASSERT_TRUE(WriteGpuTrace({late.get()}, {}, gpu).ok());
  EXPECT_EQ(gpu.str().substr(gpu.str().find('\n') + 1, 19), "310.00us  10.000us ") << gpu.str();
}

TEST_F(ReportPrintersTest, ApiTraceLeavesOutNestedDriverCalls) {
  std::ostringstream out;
  ASSERT_TRUE(WriteApiTrace(Both(), {}, out).ok());
  EXPECT_EQ(out.str(),
            "   Start  Duration  Name\n"
            "10.000us  50.000us  cuInit\n"
            "100.00us  300.00us  cudaMalloc\n"
            "990.00us  5.0000us  cudaLaunchKernel\n"
            "1.1900ms  9.0000us  cudaLaunchKernel\n"
            "1.4000ms  200.00us  cudaMemcpy\n"
            "1.7900ms  2.0000us  cudaLaunchKernel\n"
            "1.9900ms  7.0000us  cudaLaunchKernel\n");
}

TEST_F(ReportPrintersTest, StatsTablesAggregateReports) {
  std::ostringstream kernels;
  ASSERT_TRUE(WriteStatsReport("cuda_gpu_kern_sum", Both(), StatsFormat::kCsv, kernels).ok());
  // add: 3424, 3576, 4000 -> mean 3666.7, median 3576, sample stddev 298.5.
  EXPECT_EQ(
      kernels.str(),
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "52.4,11000,3,3666.7,3576.0,3424,4000,298.5,\"add(int, int, int*)\"\n"
      "47.6,10000,1,10000.0,10000.0,10000,10000,0.0,scale\n");

  std::ostringstream api;
  ASSERT_TRUE(WriteStatsReport("cuda_api_sum", Both(), StatsFormat::kCsv, api).ok());
  EXPECT_EQ(
      api.str(),
      "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "52.4,300000,1,300000.0,300000.0,300000,300000,0.0,cudaMalloc\n"
      "34.9,200000,1,200000.0,200000.0,200000,200000,0.0,cudaMemcpy\n"
      "8.7,50000,1,50000.0,50000.0,50000,50000,0.0,cuInit\n"
      "4.0,23000,4,5750.0,6000.0,2000,9000,2986.1,cudaLaunchKernel\n");

  std::ostringstream memory;
  ASSERT_TRUE(WriteStatsReport("cuda_gpu_mem_time_sum", Both(), StatsFormat::kCsv, memory).ok());
  EXPECT_EQ(
      memory.str(),
      "Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\n"
      "72.6,2656,1,2656.0,2656.0,2656,2656,0.0,[CUDA memcpy Device-to-Host]\n"
      "27.4,1000,1,1000.0,1000.0,1000,1000,0.0,[CUDA memset]\n");

  std::ostringstream sizes;
  ASSERT_TRUE(WriteStatsReport("cuda_gpu_mem_size_sum", Both(), StatsFormat::kCsv, sizes).ok());
  EXPECT_EQ(sizes.str(),
            "Total (MB),Count,Avg (MB),Med (MB),Min (MB),Max (MB),StdDev (MB),Operation\n"
            "0.001,1,0.001,0.001,0.001,0.001,0.000,[CUDA memset]\n"
            "0.000,1,0.000,0.000,0.000,0.000,0.000,[CUDA memcpy Device-to-Host]\n");

  std::ostringstream nvtx;
  ASSERT_TRUE(WriteStatsReport("nvtx_sum", Both(), StatsFormat::kColumn, nvtx).ok());
  EXPECT_EQ(nvtx.str(),
            // clang-format off
            " ** NVTX Range Summary (nvtx_sum):\n"
            "\n"
            " Time (%)  Total Time (ns)  Instances     Avg (ns)     Med (ns)   Min (ns)   Max (ns)  StdDev (ns)   Style   Range\n"
            " --------  ---------------  ---------  -----------  -----------  ---------  ---------  -----------  -------  -----\n"
            "    100.0        1,200,000          1  1,200,000.0  1,200,000.0  1,200,000  1,200,000          0.0  PushPop  :step\n"
            "\n");
  // clang-format on
}

TEST_F(ReportPrintersTest, StatsJsonOfRealReportsParses) {
  for (const std::string& name : StatsReportNames()) {
    std::ostringstream out;
    ASSERT_TRUE(WriteStatsReport(name, Both(), StatsFormat::kJson, out).ok()) << name;
    std::string error;
    std::optional<testing::JsonValue> document = testing::ParseJson(out.str(), &error);
    ASSERT_TRUE(document.has_value()) << name << ": " << error << "\n" << out.str();
    EXPECT_EQ(document->kind, testing::JsonValue::Kind::kArray) << name;
    // These reports launch no kernel inside an NVTX range (tests/cli covers those tables), and
    // were written without --gpu-metrics (gpu_metrics_summary_test covers that table).
    if (name == "nvtx_kern_sum" || name == "nvtx_gpu_proj_sum" || name == "gpu_metrics_sum") {
      continue;
    }
    EXPECT_FALSE(document->array.empty()) << name;
  }
}

TEST_F(ReportPrintersTest, WarningsComeFromTheReport) {
  EXPECT_EQ(CollectionWarnings(*rank0_),
            (std::vector<std::string>{
                "5 records were dropped by CUPTI (its buffers were full); the summary is "
                "incomplete",
                "1 kernel has no timestamps and is not timed"}));
  EXPECT_TRUE(CollectionWarnings(*rank1_).empty());
}

TEST_F(ReportPrintersTest, AReportCutShortSaysHowFarItGoes) {
  std::string path = dir_ + "/killed.sqlite";
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // The traced program: flushes once, then dies without closing its report.
    {
      auto writer = store::ReportWriter::Create(path, true);
      if (!writer.ok()) _exit(2);
      (*writer)->set_clock(FixedClock);
      model::ProcessRecord process;
      process.pid = 300;
      process.hostname = "node1";
      process.command_line = "./crashes";
      process.start = kPrinterT0;
      (*writer)->OnProcess(process);
      model::KernelRecord kernel;
      kernel.start = kPrinterT0 + 10;
      kernel.end = kPrinterT0 + 20;
      kernel.grid_x = kernel.grid_y = kernel.grid_z = 1;
      kernel.block_x = kernel.block_y = kernel.block_z = 1;
      kernel.mangled_name = "k";
      (*writer)->OnKernel(kernel);
      (*writer)->Flush();
      _exit((*writer)->status().ok() ? 0 : 3);  // no destructor, no Close: as after kill -9
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  std::unique_ptr<store::ReportReader> report = Open(path);
  ASSERT_NE(report, nullptr);
  EXPECT_EQ(CollectionWarnings(*report),
            (std::vector<std::string>{
                "the report was not finalized (the program ended abruptly or is still running): "
                "the data is complete up to the last flush (2.50000s after tracing began), "
                "anything later is missing"}));
  std::ostringstream out;
  ASSERT_TRUE(WriteNvprofSummary({report.get()}, {}, out).ok());
  EXPECT_EQ(out.str(),
            "            Type  Time(%)      Time     Calls       Avg       Min       Max  Name\n"
            " GPU activities:  100.00%      10ns         1      10ns      10ns      10ns  k\n");

  // What `gpuscope run` does next: finalise. The report is then one finished file, and
  // still says that it stops at the last flush.
  report.reset();
  ASSERT_TRUE(store::FinalizeReport(path).ok());
  report = Open(path);
  ASSERT_NE(report, nullptr);
  EXPECT_TRUE(report->finalized());
  EXPECT_EQ(CollectionWarnings(*report),
            (std::vector<std::string>{
                "the report was not closed by its writer (the process ended abruptly): the data "
                "is complete up to the last flush (2.50000s after tracing began), anything later "
                "is missing"}));
}

TEST_F(ReportPrintersTest, NullReportIsAnErrorNotACrash) {
  std::ostringstream out;
  Status status = WriteGpuTrace({rank0_.get(), nullptr}, {}, out);
  EXPECT_EQ(status.message(), "report 2 of 2 was not opened");
  EXPECT_EQ(WriteApiTrace({}, {}, out).message(), "no report to print");
}

}  // namespace
}  // namespace gpuscope::analysis
