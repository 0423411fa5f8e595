// A program that meets a sticky CUDA error and dies (examples/sticky_error): the report holds
// every call it made and every kernel and copy that completed before the error, timed, and
// the call that returned the error; the launcher names that call. The flush period is set
// longer than the run, so nothing here was saved by the periodic flush: it was saved at the
// failed call (sticky_error_watch.h), by the SIGABRT handler or by the exit flush.
#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "expected_counts.h"
#include "model/sticky_errors.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;

struct StickyCase {
  const char* mode;
  int signal;  // 0: the program exits with ex::kStickyExitCode
  std::int32_t code;
  std::string_view faulting_kernel;
};

void PrintTo(const StickyCase& c, std::ostream* out) { *out << c.mode; }

class GpuStickyError : public ::testing::TestWithParam<StickyCase> {};

TEST_P(GpuStickyError, ReportHoldsEverythingCompletedAndTheFailedCall) {
  const StickyCase& c = GetParam();
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("sticky_error"), c.mode}, {},
                                   {{"GPUSCOPE_FLUSH_MS", "600000"}});
  if (c.signal != 0) {
    EXPECT_TRUE(run.result.started && !run.result.timed_out && run.result.signaled &&
                run.result.signal == c.signal)
        << run.result.Describe();
  } else {
    EXPECT_TRUE(EndedWithExitCode(run, ex::kStickyExitCode));
  }
  const model::StickyError* error = model::FindStickyError(c.code);
  ASSERT_NE(error, nullptr);
  EXPECT_TRUE(HasLineWithAll(run.result.err, {"cudaDeviceSynchronize returned " +
                                                  std::string(error->runtime_name)}))
      << "the program's own line:\n"
      << run.result.err;
  ASSERT_TRUE(WroteReports(run, 1));
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report));

  // Every kernel that completed before the error, with its times.
  ASSERT_EQ(report.CountKernels(ex::kStickyKernel), ex::kStickyKernels);
  for (const Kernel& kernel : report.KernelsNamed(ex::kStickyKernel)) {
    EXPECT_GT(kernel.record.start, 0u);
    EXPECT_GT(kernel.record.end, kernel.record.start);
  }
  EXPECT_EQ(report.CountKernels(c.faulting_kernel), 1) << "the kernel that faulted is listed";
  int timed_copies = 0;
  for (const model::MemcpyRecord& copy : report.memcpys) {
    timed_copies += copy.start > 0 && copy.end >= copy.start;
  }
  EXPECT_EQ(timed_copies, ex::kStickyCopies);

  // Every API call, and the one that returned the error.
  EXPECT_EQ(report.CountApiCalls("cudaMalloc"), ex::kStickyMallocs);
  EXPECT_EQ(report.CountApiCalls("cudaMemcpy"), ex::kStickyCopies);
  EXPECT_EQ(report.CountApiCalls("cudaLaunchKernel"), ex::kStickyKernels + 1);
  EXPECT_EQ(report.CountApiCalls("cudaDeviceSynchronize"), 2);
  int failed_syncs = 0;
  for (const ApiCall& call : report.api_calls) {
    if (call.name == "cudaDeviceSynchronize" && call.record.return_value == c.code) ++failed_syncs;
  }
  EXPECT_EQ(failed_syncs, 1) << "the synchronize that returned the error, with its code";

  // gpuscope said once, at the call, that the context is gone and the report was saved; the
  // summary names the call again.
  int said_at_the_call = 0;
  for (std::size_t at = 0;
       (at = run.result.err.find("the CUDA context is unusable from now on", at)) !=
       std::string::npos;
       ++at) {
    ++said_at_the_call;
  }
  EXPECT_EQ(said_at_the_call, 1) << run.result.err;
  EXPECT_TRUE(HasLineWithAll(run.result.err, {"Warning:", "cudaDeviceSynchronize returned",
                                              std::string(error->runtime_name), "sticky error"}))
      << run.result.err;
  EXPECT_TRUE(HasLineWithAll(run.result.err, {std::string(ex::kStickyKernel)}))
      << "the summary lists the completed kernels:\n"
      << run.result.err;
}

INSTANTIATE_TEST_SUITE_P(
    Endings, GpuStickyError,
    ::testing::Values(StickyCase{"illegal-abort", SIGABRT, 700, ex::kStickyIllegalKernel},
                      StickyCase{"illegal-exit1", 0, 700, ex::kStickyIllegalKernel},
                      StickyCase{"assert-abort", SIGABRT, 710, ex::kStickyAssertKernel}),
    [](const ::testing::TestParamInfo<StickyCase>& info) {
      std::string name = info.param.mode;
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace gpuscope::gpu_test
