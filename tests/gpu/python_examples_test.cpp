// GPU tests of Python programs traced unchanged: `gpuscope run -- python3 script.py` with
// Numba, CuPy and PyTorch. A module the Python that runs them cannot import is a failure
// (a missing module must not read as a pass), unless GPUSCOPE_ALLOW_MISSING_PYTHON=1, which
// turns it into a skip with the reason (scripts/gpu-tests.sh counts skips in its summary).
// Anything else that goes wrong is a failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>

#include "python_modules.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

using model::CopyKind;

std::string Lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Byte counts of the copies of one kind, sorted.
std::vector<std::uint64_t> CopyBytes(const Report& report, CopyKind kind) {
  std::vector<std::uint64_t> bytes;
  for (const auto& copy : report.memcpys) {
    if (copy.copy_kind == kind) bytes.push_back(copy.bytes);
  }
  std::sort(bytes.begin(), bytes.end());
  return bytes;
}

// The most frequent kernel name and its count.
std::pair<std::string, int> MostFrequentKernel(const Report& report) {
  std::pair<std::string, int> best{"", 0};
  for (const auto& [name, count] : report.KernelCountsByName()) {
    if (count > best.second) best = {name, count};
  }
  return best;
}

// Reference 000: one convolve kernel, three copies in and three out (result, mask, image).
TEST(GpuPython, NumbaConvolutionOfReference000) {
  REQUIRE_IMPORTABLE(kImportNumba, "numba.cuda");
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(
      dir, {PythonInterpreter(), PythonExample("numba_convolve.py")}, 0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"numba_convolve: ok"})) << run.result.out;

  ASSERT_EQ(report.kernels.size(), 1u) << "the only kernel is convolve";
  const Kernel& kernel = report.kernels[0];
  EXPECT_NE(kernel.name.find("convolve"), std::string::npos) << kernel.name;
  EXPECT_NE(kernel.name.find('('), std::string::npos)
      << "demangled with parameters: " << kernel.name;
  // 200x200 image, 32x32 blocks: (200 // 32 + 1) = 7 blocks each way.
  EXPECT_EQ(std::vector<int>({kernel.record.grid_x, kernel.record.grid_y, kernel.record.grid_z}),
            std::vector<int>({7, 7, 1}));
  EXPECT_EQ(std::vector<int>({kernel.record.block_x, kernel.record.block_y, kernel.record.block_z}),
            std::vector<int>({32, 32, 1}));

  // float32: the 200x200 image and result are 160000 bytes, the 13x13 mask 676.
  const std::vector<std::uint64_t> expected = {676, 160000, 160000};
  EXPECT_EQ(CopyBytes(report, CopyKind::kHtoD), expected);
  EXPECT_EQ(CopyBytes(report, CopyKind::kDtoH), expected);
  EXPECT_EQ(report.memcpys.size(), 6u);
}

TEST(GpuPython, CupyRawKernelLaunchedNTimes) {
  REQUIRE_IMPORTABLE(kImportCupy, "cupy");
  constexpr int kLaunches = 25;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir,
                            {PythonInterpreter(), PythonExample("cupy_kernel.py"), "--launches",
                             std::to_string(kLaunches), "--elements", "65536", "--block", "256"},
                            0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"cupy_kernel: ok"})) << run.result.out;
  std::vector<Kernel> ours = report.KernelsNamed("gpuscope_add_one");  // extern "C": unmangled
  ASSERT_EQ(ours.size(), static_cast<size_t>(kLaunches));
  for (const auto& kernel : ours) {
    EXPECT_EQ(kernel.record.grid_x, 65536 / 256);
    EXPECT_EQ(kernel.record.block_x, 256);
  }
}

// Every product of the same shapes runs the same cuBLAS kernels, so each matmul kernel name
// appears a multiple of (N + 1) times (N timed products and one warm-up).
TEST(GpuPython, TorchMatmulLoop) {
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  constexpr int kMatmuls = 10;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir,
                            {PythonInterpreter(), PythonExample("torch_matmul.py"), "--matmuls",
                             std::to_string(kMatmuls)},
                            0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"torch_matmul: ok"})) << run.result.out;
  int matmul_kernels = 0;
  std::string names;
  for (const auto& [name, count] : report.KernelCountsByName()) {
    names += "\n  " + std::to_string(count) + " x " + name;
    if (count % (kMatmuls + 1) == 0) matmul_kernels += count;
  }
  EXPECT_GE(matmul_kernels, kMatmuls + 1) << "kernels in the report:" << names;
  EXPECT_GE(report.CountApiCalls("cudaDeviceSynchronize"), 1) << "torch.cuda.synchronize()";
}

TEST(GpuPython, TorchAddLoopKeepsEveryLaunch) {
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  constexpr int kIterations = 2000, kWarmup = 10;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(
      dir,
      {PythonInterpreter(), PythonExample("torch_add_loop.py"), "--iterations",
       std::to_string(kIterations), "--warmup", std::to_string(kWarmup)},
      0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"kernels 2010"})) << run.result.out;
  auto [name, count] = MostFrequentKernel(report);
  EXPECT_EQ(count, kIterations + kWarmup) << name;
  EXPECT_NE(Lowercase(name).find("add"), std::string::npos) << name;
}

// PyTorch's NVTX ranges reach the report (issue 25: 0 rows of 17,066 kernels before). PyTorch
// loads its own CUPTI at import; NVTX used to load the toolkit's as a second copy, untraced.
TEST(GpuPython, TorchNvtxRangesAreRecorded) {
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  constexpr int kSteps = 20, kEmitNvtxSteps = 3;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(
      dir,
      {PythonInterpreter(), PythonExample("torch_nvtx_ranges.py"), "--steps",
       std::to_string(kSteps), "--emit-nvtx-steps", std::to_string(kEmitNvtxSteps)},
      0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"torch_nvtx_ranges: ok"})) << run.result.out;
  int steps = 0, aten_ops = 0;
  for (const Nvtx& range : report.nvtx) {
    steps += range.name == "step";
    aten_ops += range.name.rfind("aten::", 0) == 0;
  }
  EXPECT_EQ(steps, kSteps) << report.nvtx.size() << " NVTX rows";
  EXPECT_GE(aten_ops, kEmitNvtxSteps) << "emit_nvtx's op ranges";
}

// torch.profiler is started while gpuscope traces: gpuscope must keep every kernel, before,
// during and after the profiler's session.
TEST(GpuPython, TorchProfilerInsideGpuscopeTakesNoKernelAway) {
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  constexpr int kBefore = 50, kInside = 100, kAfter = 50;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir,
                            {PythonInterpreter(), PythonExample("torch_profiler_under_gpuscope.py"),
                             "--before", std::to_string(kBefore), "--inside",
                             std::to_string(kInside), "--after", std::to_string(kAfter)},
                            0, run, report));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"torch_profiler_under_gpuscope: ok"}))
      << run.result.out;
  auto [name, count] = MostFrequentKernel(report);
  EXPECT_EQ(count, kBefore + kInside + kAfter) << name;
  EXPECT_NE(Lowercase(name).find("add"), std::string::npos) << name;
}

}  // namespace
}  // namespace gpuscope::gpu_test
