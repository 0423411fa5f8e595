// `gpuscope run --backtrace` on real programs (issue 15): each kernel's call site names the line
// that launched it. The PyTorch program and the native example mark their launch lines
// ("launch: <what>", "launch site: <what>"); the test reads the line numbers from the files, so
// editing an example cannot leave the test checking old lines.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>

#include "analysis/call_sites.h"
#include "python_modules.h"
#include "report_expectations.h"
#include "store/stack_tables.h"
#include "traced_run.h"

namespace gpuscope::gpu_test {
namespace {

// The 1-based line of `path` that contains `marker`; 0 when none does.
int LineWith(const std::string& path, const std::string& marker) {
  std::ifstream in(path);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.find(marker) != std::string::npos) return number;
  }
  return 0;
}

// Kernel name -> its launches' call-site frames, from the report's stacks.
struct Sites {
  std::map<std::uint32_t, std::vector<store::StoredFrame>> by_correlation;
  int kernels_without_stack = 0;
};

Sites CallSites(const Report& report) {
  Sites sites;
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report.reader);
  EXPECT_TRUE(stacks.ok()) << stacks.status().message();
  if (!stacks.ok()) return sites;
  for (const ApiCall& call : report.api_calls) {
    auto stack = stacks->find(call.record.stack_id);
    if (stack != stacks->end()) sites.by_correlation[call.record.correlation_id] = stack->second;
  }
  return sites;
}

// "<file base>:<line> <function>" of the call site of each kernel, counted.
std::map<std::string, int> KernelsPerCallSite(const Report& report, std::string* listing) {
  Sites sites = CallSites(report);
  std::map<std::string, int> counts;
  for (const Kernel& kernel : report.kernels) {
    auto found = sites.by_correlation.find(kernel.record.correlation_id);
    const std::string site = found == sites.by_correlation.end()
                                 ? "[no call stack]"
                                 : analysis::CallSiteLabel(found->second);
    ++counts[site];
    *listing += "\n  " + site + "  <-  " + kernel.name.substr(0, 80);
  }
  return counts;
}

TEST(GpuBacktrace, TorchKernelsNameThePythonLinesThatLaunchedThem) {
  REQUIRE_IMPORTABLE(kImportTorch, "torch");
  const std::string script = PythonExample("torch_backtrace.py");
  const int matmul_line = LineWith(script, "# launch: matmul");
  const int relu_line = LineWith(script, "# launch: relu");
  ASSERT_GT(matmul_line, 0);
  ASSERT_GT(relu_line, 0);
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {PythonInterpreter(), script}, 0, run, report, {"--backtrace"}));
  EXPECT_TRUE(HasLineWithAll(run.result.out, {"torch_backtrace: ok"})) << run.result.out;
  std::string listing;
  std::map<std::string, int> sites = KernelsPerCallSite(report, &listing);
  const std::string matmul = "torch_backtrace.py:" + std::to_string(matmul_line) + " forward";
  const std::string relu = "torch_backtrace.py:" + std::to_string(relu_line) + " forward";
  EXPECT_GE(sites[matmul], 5) << "kernels by call site:" << listing;
  EXPECT_EQ(sites[relu], 5) << "kernels by call site:" << listing;
  EXPECT_EQ(report.reader->counters().stacks_dropped, 0u);

  // The same through the command users run.
  CommandResult table =
      RunCommand({GpuscopeBinary(), "stats", "--report", "cuda_gpu_kern_callsite_sum", "--format",
                  "csv", run.reports[0]});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find(matmul), std::string::npos) << table.out;
  EXPECT_NE(table.out.find(relu), std::string::npos) << table.out;
}

TEST(GpuBacktrace, NativeLaunchSitesAreSymbolizedToFunctionFileAndLine) {
  const std::string source = SourceDir() + "/examples/backtrace_sites.cu";
  const int scale_line = LineWith(source, "// launch site: scale");
  const int shift_line = LineWith(source, "// launch site: shift");
  ASSERT_GT(scale_line, 0);
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(RunExpectingOneReport(dir, {ExampleBinary("backtrace_sites")}, 0, run,
                                                report, {"--backtrace"}));
  std::string listing;
  std::map<std::string, int> sites = KernelsPerCallSite(report, &listing);
  const std::string scale =
      "LaunchScale(float*, int) (backtrace_sites.cu:" + std::to_string(scale_line) + ")";
  const std::string shift =
      "LaunchShift(float*, int) (backtrace_sites.cu:" + std::to_string(shift_line) + ")";
  EXPECT_EQ(sites[scale], 3) << "kernels by call site:" << listing;
  EXPECT_EQ(sites[shift], 2) << "kernels by call site:" << listing;
  // The copies and the synchronisation have stacks too.
  int copies_with_stack = 0, syncs_with_stack = 0;
  for (const ApiCall& call : report.api_calls) {
    if (call.record.stack_id == 0) continue;
    copies_with_stack += call.name == "cudaMemcpy";
    syncs_with_stack += call.name == "cudaDeviceSynchronize";
  }
  EXPECT_EQ(copies_with_stack, 1);
  EXPECT_EQ(syncs_with_stack, 1);
}

TEST(GpuBacktrace, WithoutTheOptionNoStackIsRecorded) {
  ScratchDir dir;
  TracedRun run;
  Report report;
  ASSERT_NO_FATAL_FAILURE(
      RunExpectingOneReport(dir, {ExampleBinary("backtrace_sites")}, 0, run, report));
  for (const ApiCall& call : report.api_calls) EXPECT_EQ(call.record.stack_id, 0u) << call.name;
  StatusOr<store::StoredStacks> stacks = store::ReadStacks(*report.reader);
  ASSERT_TRUE(stacks.ok());
  EXPECT_TRUE(stacks->empty());
}

}  // namespace
}  // namespace gpuscope::gpu_test
