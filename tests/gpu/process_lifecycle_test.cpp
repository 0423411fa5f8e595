// GPU tests of how a traced process starts, ends and shares the GPU tooling: children
// started with system(), programs that crash after 1,000 kernels, --profile-from-start off,
// and a program that holds CUPTI itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <regex>
#include <sstream>

#include "expected_counts.h"
#include "report_expectations.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

namespace ex = gpuscope::examples;

std::vector<std::string> KernelNamesInStartOrder(const Report& report) {
  std::vector<Kernel> kernels = report.kernels;
  std::stable_sort(kernels.begin(), kernels.end(), [](const Kernel& a, const Kernel& b) {
    return a.record.start < b.record.start;
  });
  std::vector<std::string> names;
  for (const auto& kernel : kernels) names.push_back(kernel.name);
  return names;
}

std::vector<std::string> Repeated(std::string_view name, int count) {
  return std::vector<std::string>(count, std::string(name));
}

TEST(GpuChildren, ParentAndSystemChildGetOneReportEach) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("child_system")});
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  ASSERT_TRUE(WroteReports(run, 2));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"child_system parent: 4 kernels"})) << run.result.out;
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"child_system child: 6 kernels"})) << run.result.out;

  std::vector<Report> reports;
  for (const auto& path : run.reports) {
    reports.push_back(LoadReport(path));
    ASSERT_TRUE(Loaded(reports.back()));
    ExpectNothingLost(reports.back());
    ExpectProcessAndDevices(reports.back(), path, "child_system");
  }
  auto is_child = [](const Report& r) {
    return r.reader->process().command_line.find(ex::kChildArgument) != std::string::npos;
  };
  ASSERT_EQ(std::count_if(reports.begin(), reports.end(), is_child), 1)
      << "exactly one report is the child's (command line with " << ex::kChildArgument << ")";
  const Report& child = is_child(reports[0]) ? reports[0] : reports[1];
  const Report& parent = is_child(reports[0]) ? reports[1] : reports[0];

  EXPECT_EQ(parent.kernels.size(), static_cast<size_t>(ex::kParentKernels));
  EXPECT_EQ(parent.CountKernels(ex::kParentKernel), ex::kParentKernels);
  EXPECT_EQ(child.kernels.size(), static_cast<size_t>(ex::kChildKernels));
  EXPECT_EQ(child.CountKernels(ex::kChildKernel), ex::kChildKernels);
  EXPECT_NE(child.reader->process().pid, parent.reader->process().pid);
  EXPECT_NE(child.reader->process().parent_pid, 0u);
}

TEST(GpuChildren, ChildrenAreNotTracedWhenTurnedOff) {
  ScratchDir dir;
  TracedRun run =
      RunUnderGpuscope(dir, {ExampleBinary("child_system")}, {"--profile-child-processes", "off"});
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  ASSERT_TRUE(WroteReports(run, 1));
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report));
  EXPECT_EQ(report.CountKernels(ex::kParentKernel), ex::kParentKernels);
  EXPECT_EQ(report.CountKernels(ex::kChildKernel), 0);
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"child_system child: 6 kernels"}))
      << "the child still runs: " << run.result.out;
}

struct CrashCase {
  const char* mode;
  int signal;     // 0: the program exits by itself
  int exit_code;  // the program's own exit code when signal == 0
};

// For test names and messages: the mode, not the struct's bytes.
void PrintTo(const CrashCase& c, std::ostream* out) { *out << c.mode; }

class GpuCrash : public ::testing::TestWithParam<CrashCase> {};

// After an abort, kill -9, a segfault or an illegal-address error, the report opens and holds
// the 1,000 kernels flushed before the end, and the launcher says how the program ended and
// still prints the summary of what it has.
TEST_P(GpuCrash, ReportKeepsTheThousandKernelsFlushedBeforeTheEnd) {
  const CrashCase& c = GetParam();
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("crash_after"), c.mode});
  if (c.signal != 0) {
    // gpuscope ends by the signal that killed the program, once it has printed everything.
    EXPECT_TRUE(run.result.started && !run.result.timed_out && run.result.signaled &&
                run.result.signal == c.signal)
        << "gpuscope must end by signal " << c.signal << "\n"
        << run.result.Describe();
  } else {
    EXPECT_TRUE(EndedWithExitCode(run, c.exit_code));
  }
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"crash_after: 1000 kernels done"})) << run.result.out;
  ASSERT_TRUE(WroteReports(run, 1));
  Report report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report)) << "the report must open after the program's end by " << c.mode;

  EXPECT_EQ(report.CountKernels(ex::kCrashKernel), ex::kCrashKernels);
  for (const auto& kernel : report.KernelsNamed(ex::kCrashKernel)) {
    EXPECT_GT(kernel.record.start, 0u);
    EXPECT_GT(kernel.record.end, kernel.record.start);
  }
  // The faulting kernel of "illegal" may legitimately lack timestamps; the others lose nothing.
  if (std::string(c.mode) != "illegal") ExpectNothingLost(report);

  const std::string& err = run.result.err;
  if (c.signal != 0) {
    const std::string name = std::string("SIG") + sigabbrev_np(c.signal);
    EXPECT_TRUE(HasLineWithAll(err, {name})) << "the launcher must say " << name << ":\n" << err;
  } else if (c.exit_code != 0) {
    EXPECT_TRUE(HasLineWithAll(err, {"code " + std::to_string(c.exit_code)}))
        << "the launcher must say the exit code:\n"
        << err;
  }
  EXPECT_TRUE(HasLineWithAll(err, {"GPU activities:"})) << "no summary after the end:\n" << err;
  EXPECT_TRUE(HasLineWithAll(err, {std::string(ex::kCrashKernel)})) << err;
}

INSTANTIATE_TEST_SUITE_P(
    Endings, GpuCrash,
    ::testing::Values(CrashCase{"abort", SIGABRT, 0}, CrashCase{"kill9", SIGKILL, 0},
                      CrashCase{"segv", SIGSEGV, 0},
                      CrashCase{"illegal", 0, ex::kCrashIllegalExitCode}, CrashCase{"exit0", 0, 0}),
    [](const ::testing::TestParamInfo<CrashCase>& info) { return std::string(info.param.mode); });

TEST(GpuProfileFromStart, OffRecordsOnlyKernelsBetweenStartAndStop) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("profiler_start_stop")}, 0, run,
                                                report, {"--profile-from-start", "off"}));
  EXPECT_EQ(KernelNamesInStartOrder(report), Repeated(ex::kBetweenKernel, ex::kBetweenKernels));
}

TEST(GpuProfileFromStart, DefaultRecordsEveryKernel) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("profiler_start_stop")}, 0, run, report));
  std::vector<std::string> expected = Repeated(ex::kBeforeStartKernel, ex::kBeforeStartKernels);
  for (const auto& name : Repeated(ex::kBetweenKernel, ex::kBetweenKernels))
    expected.push_back(name);
  for (const auto& name : Repeated(ex::kAfterStopKernel, ex::kAfterStopKernels))
    expected.push_back(name);
  EXPECT_EQ(KernelNamesInStartOrder(report), expected);
}

// The program subscribed to CUPTI before its first CUDA call: gpuscope says so once, stands
// down, and the program runs to its normal end.
TEST(GpuForeignCupti, GpuscopeStandsDownOnceAndTheProgramWorks) {
  ScratchDir dir;
  TracedRun run = RunUnderGpuscope(dir, {ExampleBinary("foreign_cupti_owner")});
  ASSERT_TRUE(EndedWithExitCode(run, 0));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"cuptiSubscribe: CUPTI_SUCCESS"}))
      << "the program must own CUPTI for this test to mean anything:\n"
      << run.result.out;
  EXPECT_TRUE(HasLineWithAll(run.result.out, {ex::kForeignOkLine})) << run.result.out;

  const std::regex in_use(
      R"((CUPTI.*(already|in use|another|other tool))|((already|in use|another).*CUPTI))",
      std::regex::icase);
  int mentions = 0;
  std::istringstream lines(run.result.err);
  for (std::string line; std::getline(lines, line);) mentions += std::regex_search(line, in_use);
  EXPECT_EQ(mentions, 1) << "gpuscope must say once that CUPTI is already in use:\n"
                         << run.result.err;
}

}  // namespace
}  // namespace gpuscope::gpu_test
