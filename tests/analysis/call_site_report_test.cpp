// `stats --report cuda_gpu_kern_callsite_sum` and `diff --match name+callsite` on reports
// built through the real writer: which frame is a launch's call site, and the GPU time per site.
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "analysis/call_sites.h"
#include "analysis/diff/kernel_launches.h"
#include "analysis/stats_reports.h"
#include "store/report_reader.h"
#include "store/testing/report_builder.h"
#include "store/testing/scratch_dir.h"

namespace gpuscope::analysis {
namespace {

using model::FrameKind;
using store::StoredFrame;

StoredFrame Python(std::string file, std::string function, std::uint32_t line) {
  return {FrameKind::kPython, 0, std::move(function), std::move(file), line, {}};
}
StoredFrame Native(std::string function, std::string file, std::uint32_t line, std::string module) {
  return {FrameKind::kNative, 0x401234, std::move(function),
          std::move(file),    line,     std::move(module)};
}

TEST(CallSites, TheInnermostUserPythonFrameIsTheCallSite) {
  const std::vector<StoredFrame> stack = {
      Python("/venv/lib/python3.12/site-packages/torch/nn/modules/linear.py", "Linear.forward",
             125),
      Python("/usr/lib/python3.12/contextlib.py", "inner", 81),
      Python("/home/me/model.py", "Net.forward", 30), Python("/home/me/train.py", "step", 42)};
  EXPECT_EQ(CallSiteFrame(stack), 2u);
  EXPECT_EQ(CallSiteLabel(stack), "model.py:30 Net.forward");
  EXPECT_EQ(StackText(stack, 4), "model.py:30 Net.forward < train.py:42 step");
  EXPECT_EQ(StackText(stack, 1), "model.py:30 Net.forward < ...");
}

TEST(CallSites, OnlyLibraryPythonFramesFallBackToTheInnermost) {
  const std::vector<StoredFrame> stack = {
      Python("/venv/lib/python3.12/site-packages/torch/functional.py", "einsum", 402),
      Python("<frozen runpy>", "_run_code", 88)};
  EXPECT_EQ(CallSiteLabel(stack), "functional.py:402 einsum");
}

TEST(CallSites, NativeStacksSkipCudaCuptiAndGpuscope) {
  const std::vector<StoredFrame> stack = {
      Native("", "", 0, "/opt/gpuscope/lib/libgpuscope_inject.so"),
      Native("cuptiInternal", "", 0, "/usr/local/cuda/lib64/libcupti.so.13"),
      Native("", "", 0, "/usr/lib/x86_64-linux-gnu/libcuda.so.1"),
      Native("cudaLaunchKernel", "", 0, "/usr/local/cuda/lib64/libcudart.so.13"),
      // A statically linked runtime and nvcc's launch stub live in the program itself.
      Native("cudart::cudaApiLaunchKernel(void const*, dim3, dim3, void**, unsigned long, "
             "CUstream_st*)",
             "", 0, "/src/build/app"),
      Native("cudaError cudaLaunchKernel<char>(char const*, dim3, dim3, void**, unsigned long, "
             "CUstream_st*)",
             "/usr/local/cuda/include/cuda_runtime.h", 216, "/src/build/app"),
      Native("__device_stub__Z3addPf(float*)", "/tmp/app.cudafe1.stub.c", 1, "/src/build/app"),
      Native("launch_add(float*)", "/src/app.cu", 31, "/src/build/app"),
      Native("main", "/src/app.cu", 50, "/src/build/app")};
  EXPECT_EQ(CallSiteFrame(stack), 7u);
  EXPECT_EQ(CallSiteLabel(stack), "launch_add(float*) (app.cu:31)");
  EXPECT_EQ(FrameLabel(Native("", "", 0, "/usr/lib/libfoo.so")), "0x401234 (libfoo.so)");
  EXPECT_EQ(CallSiteLabel({}), "[no call stack]");
}

// CUDA 13's launch path in a program built with -g -O0 (examples/backtrace_sites on the H100):
// the header's inline helper, nvcc's stub and the host function nvcc generates for the kernel
// come between the runtime and the user's launch line.
TEST(CallSites, CudasLaunchHelperAndNvccsKernelFunctionAreNotTheCallSite) {
  const std::vector<StoredFrame> stack = {
      Native("__cudaLaunchKernel(void const*, dim3, dim3, void**, unsigned long, CUstream_st*)",
             "", 0, "/src/build/backtrace_sites"),
      Native("__cudaLaunchKernel_helper(void const*, dim3, dim3, void**, unsigned long, "
             "CUstream_st*)",
             "/usr/local/cuda/targets/x86_64-linux/include/crt/device_functions.h", 2963,
             "/src/build/backtrace_sites"),
      Native("__device_stub__Z5scalePfif(float*, int, float)",
             "/tmp/tmpxft_0000a1b2_00000000-6_backtrace_sites.cudafe1.stub.c", 14,
             "/src/build/backtrace_sites"),
      // nvcc's host function for the kernel: its #line is the kernel's definition.
      Native("scale(float*, int, float)", "/src/examples/backtrace_sites.cu", 9,
             "/src/build/backtrace_sites"),
      Native("LaunchScale(float*, int)", "/src/examples/backtrace_sites.cu", 20,
             "/src/build/backtrace_sites"),
      Native("main", "/src/examples/backtrace_sites.cu", 34, "/src/build/backtrace_sites")};
  EXPECT_EQ(CallSiteLabel(stack), "LaunchScale(float*, int) (backtrace_sites.cu:20)");
}

// Autograd's backward thread runs no Python: PyTorch's own frames are all there is, and the
// innermost of them is the call site. With a user's Python frame, that frame wins over them.
TEST(CallSites, FrameworkFramesAreTheCallSiteOnlyWithoutTheUsersCode) {
  const StoredFrame dispatcher = Native("at::native::relu(at::Tensor const&)", "", 0,
                                        "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so");
  const StoredFrame autograd = Native("torch::autograd::Engine::thread_main", "", 0,
                                      "/venv/lib/python3.12/site-packages/torch/lib/libtorch_cpu.so");
  const std::vector<StoredFrame> backward = {
      Native("", "", 0, "/usr/lib/x86_64-linux-gnu/libcuda.so.1"), dispatcher, autograd};
  EXPECT_EQ(CallSiteFrame(backward), 1u);
  const std::vector<StoredFrame> forward = {
      Native("", "", 0, "/usr/lib/x86_64-linux-gnu/libcuda.so.1"), dispatcher,
      Native("_PyEval_EvalFrameDefault", "", 0, "/usr/bin/python3.12"),
      Python("/venv/lib/python3.12/site-packages/torch/nn/functional.py", "relu", 1704),
      Python("/home/me/model.py", "Net.forward", 30)};
  EXPECT_EQ(CallSiteLabel(forward), "model.py:30 Net.forward");
}

// Two call sites launching one kernel, one launch without a stack.
std::string BuildReport(const store::testing::ScratchDir& dir, const std::string& name,
                        std::uint64_t scale) {
  const std::string path = dir.File(name);
  store::testing::ReportBuilder report(path);
  static const model::StackFrame kTorch = {
      FrameKind::kPython, 0, "/venv/lib/python3.12/site-packages/torch/nn/functional.py", "relu",
      1500};
  static const model::StackFrame kForward = {FrameKind::kPython, 0, "/home/me/train.py",
                                             "Net.forward", 30};
  static const model::StackFrame kLoss = {FrameKind::kPython, 0, "/home/me/train.py", "step", 55};
  static const model::StackFrame kMain = {FrameKind::kPython, 0, "/home/me/train.py", "<module>",
                                          90};
  const std::vector<model::StackFrame> forward = {kTorch, kForward, kMain};
  const std::vector<model::StackFrame> loss = {kTorch, kLoss, kMain};
  report.Write(model::StackRecord{1, forward.data(), forward.size()});
  report.Write(model::StackRecord{2, loss.data(), loss.size()});
  std::uint64_t t = 1000;
  auto launch = [&](std::uint32_t stack, std::uint64_t duration) {
    const std::uint32_t correlation = report.NextCorrelation();
    report.Api("cudaLaunchKernel", t, 5, correlation, {.stack_id = stack});
    report.Kernel(t + 10, duration, {.name = "_Z4reluv", .correlation = correlation});
    t += 1000;
  };
  for (int i = 0; i < 3; ++i) launch(1, 100 * scale);  // forward: 300 * scale
  launch(2, 50);                                       // loss: 50
  launch(0, 25);                                       // no stack: 25
  EXPECT_TRUE(report.Close().ok());
  return path;
}

TEST(KernelCallSiteSum, GpuTimePerCallSiteTopFirstWithTheStack) {
  store::testing::ScratchDir dir;
  const std::string path = BuildReport(dir, "sites.sqlite", 1);
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok());
  StatusOr<StatsTable> table = BuildStatsReport("cuda_gpu_kern_callsite_sum", {report->get()});
  ASSERT_TRUE(table.ok()) << table.status().message();
  EXPECT_EQ(table->title, "CUDA GPU Kernel Summary by Call Site");
  ASSERT_EQ(table->columns.size(), 10u);
  EXPECT_EQ(table->columns[8].header, "Call Site");
  EXPECT_EQ(table->columns[9].header, "Stack");
  ASSERT_EQ(table->rows.size(), 3u);
  EXPECT_EQ(table->rows[0][8].text, "train.py:30 Net.forward");
  EXPECT_EQ(table->rows[0][9].text, "train.py:30 Net.forward < train.py:90 <module>");
  EXPECT_EQ(table->rows[0][1].integer, 300u);  // total
  EXPECT_EQ(table->rows[0][2].integer, 3u);    // instances
  EXPECT_NEAR(table->rows[0][0].decimal, 100.0 * 300 / 375, 1e-9);
  EXPECT_EQ(table->rows[1][8].text, "train.py:55 step");
  EXPECT_EQ(table->rows[1][1].integer, 50u);
  EXPECT_EQ(table->rows[2][8].text, "[no call stack]");
  EXPECT_EQ(table->rows[2][1].integer, 25u);
}

TEST(KernelCallSiteDiff, KernelsArePairedByNameAndCallSite) {
  store::testing::ScratchDir dir;
  const std::string path = BuildReport(dir, "before.sqlite", 2);
  StatusOr<std::unique_ptr<store::ReportReader>> report = store::ReportReader::Open(path);
  ASSERT_TRUE(report.ok());
  StatusOr<diff::ReportKernels> kernels =
      diff::LoadReportKernels(**report, diff::MatchBy::kNameAndCallSite);
  ASSERT_TRUE(kernels.ok()) << kernels.status().message();
  ASSERT_EQ(kernels->kernels.size(), 3u);
  std::map<std::string, std::size_t> launches;
  for (const diff::KernelLaunches& k : kernels->kernels) launches[k.key.call_site] = k.launches;
  EXPECT_EQ(launches["train.py:30 Net.forward"], 3u);
  EXPECT_EQ(launches["train.py:55 step"], 1u);
  EXPECT_EQ(launches["[no call stack]"], 1u);
  EXPECT_EQ(diff::ParseMatchBy("name+callsite"), diff::MatchBy::kNameAndCallSite);
  EXPECT_EQ(diff::MatchByName(diff::MatchBy::kNameAndCallSite), "name+callsite");
}

}  // namespace
}  // namespace gpuscope::analysis
