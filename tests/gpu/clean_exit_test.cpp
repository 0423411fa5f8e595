// A normal exit loses nothing (issue 25), in every framework: the program's own launches,
// copies and API calls are all in the report, and gpuscope prints no line about lost data.
// Every `gpuscope run` once ended with "N records arrived after the report was closed": the
// last GPU clock pair was taken after the final flush, and its kernel's records came late.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expected_counts.h"
#include "python_modules.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

using model::CopyKind;

int Copies(const Report& report, CopyKind kind, std::uint64_t bytes) {
  int count = 0;
  for (const auto& copy : report.memcpys) count += copy.copy_kind == kind && copy.bytes == bytes;
  return count;
}

int KernelsWith(const Report& report, std::string_view fragment) {
  int count = 0;
  for (const auto& kernel : report.kernels) count += kernel.name.find(fragment) != std::string::npos;
  return count;
}

TEST(GpuCleanExit, NativeProgramLosesNothing) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("vector_add")}, 0, run, report));
  ExpectNoLossLine(run);
  const std::uint64_t bytes = examples::kVectorAddDefaultElements * sizeof(float);
  EXPECT_EQ(report.CountKernels(examples::kVectorAddKernel), 1);
  EXPECT_EQ(report.kernels.size(), 1u) << "gpuscope's clock kernel is not the program's";
  EXPECT_EQ(Copies(report, CopyKind::kHtoD, bytes), 2);
  EXPECT_EQ(Copies(report, CopyKind::kDtoH, bytes), 1);
  EXPECT_EQ(report.CountApiCalls("cudaMalloc"), 3);
  EXPECT_EQ(report.CountApiCalls("cudaFree"), 3);
  EXPECT_EQ(report.CountApiCalls("cudaDeviceSynchronize"), 1);
}

// Reference 000's kernel: one launch, three copies in and three out.
TEST(GpuCleanExit, NumbaProgramLosesNothing) {
  REQUIRE_IMPORTABLE(kImportNumba, "numba.cuda");
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(
      dir, {PythonInterpreter(), PythonExample("numba_convolve.py")}, 0, run, report));
  ExpectNoLossLine(run);
  EXPECT_EQ(KernelsWith(report, "convolve"), 1);
  EXPECT_EQ(report.kernels.size(), 1u);
  EXPECT_EQ(Copies(report, CopyKind::kHtoD, 160000) + Copies(report, CopyKind::kHtoD, 676), 3);
  EXPECT_EQ(Copies(report, CopyKind::kDtoH, 160000) + Copies(report, CopyKind::kDtoH, 676), 3);
}

// 25 launches of a RawKernel, one deviceSynchronize, one copy of the array back.
TEST(GpuCleanExit, CupyProgramLosesNothing) {
  REQUIRE_IMPORTABLE(kImportCupy, "cupy");
  constexpr int kLaunches = 25, kElements = 65536;
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(
      dir,
      {PythonInterpreter(), PythonExample("cupy_kernel.py"), "--launches",
       std::to_string(kLaunches), "--elements", std::to_string(kElements)},
      0, run, report));
  ExpectNoLossLine(run);
  EXPECT_EQ(report.CountKernels("gpuscope_add_one"), kLaunches);
  EXPECT_EQ(report.CountApiCalls("cudaDeviceSynchronize"), 1);
  EXPECT_EQ(Copies(report, CopyKind::kDtoH, kElements * sizeof(float)), 1);
}

// 2,010 add_ launches, two torch.cuda.synchronize() calls, one 4-byte copy back (x[0].item()).
TEST(GpuCleanExit, TorchProgramLosesNothing) {
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
  ExpectNoLossLine(run);
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"kernels 2010"})) << run.result.out;
  int adds = 0;
  for (const auto& [name, count] : report.KernelCountsByName()) adds = std::max(adds, count);
  EXPECT_EQ(adds, kIterations + kWarmup);
  EXPECT_EQ(report.CountApiCalls("cudaDeviceSynchronize"), 2);
  EXPECT_EQ(Copies(report, CopyKind::kDtoH, sizeof(float)), 1);
}

}  // namespace
}  // namespace gpuscope::gpu_test
