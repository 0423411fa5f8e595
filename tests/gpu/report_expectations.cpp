#include "report_expectations.h"

#include <set>
#include <sstream>

namespace gpuscope::gpu_test {
namespace {

// What the traced process's command line must mention: the script of a Python run, else the
// program's file name (however the launcher spelled its path).
std::string CommandFragment(const std::vector<std::string>& program) {
  for (const auto& arg : program) {
    if (arg.size() > 3 && arg.compare(arg.size() - 3, 3, ".py") == 0) {
      return arg.substr(arg.find_last_of('/') + 1);
    }
  }
  if (program.empty()) return "";
  return program.front().substr(program.front().find_last_of('/') + 1);
}

}  // namespace

::testing::AssertionResult EndedWithExitCode(const TracedRun& run, int exit_code) {
  const CommandResult& r = run.result;
  if (r.started && !r.timed_out && !r.signaled && r.exit_code == exit_code) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure() << "expected exit code " << exit_code << "\n"
                                       << r.Describe();
}

::testing::AssertionResult WroteReports(const TracedRun& run, size_t count) {
  if (run.reports.size() == count) return ::testing::AssertionSuccess();
  auto failure = ::testing::AssertionFailure();
  failure << "expected " << count << " report(s), found " << run.reports.size() << ":";
  for (const auto& path : run.reports) failure << " " << path;
  return failure << "\n" << run.result.Describe();
}

::testing::AssertionResult Loaded(const Report& report) {
  if (report.ok()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << report.load_error;
}

void ExpectNothingLost(const Report& report) {
  const model::CollectionCounters& counters = report.reader->counters();
  EXPECT_EQ(counters.dropped_records, 0u) << "CUPTI dropped records";
  EXPECT_EQ(counters.kernels_without_timestamp, 0u);
  EXPECT_EQ(counters.copies_without_timestamp, 0u);
  EXPECT_EQ(counters.memsets_without_timestamp, 0u);
  int untimed_kernels = 0, untimed_copies = 0, untimed_memsets = 0;
  for (const auto& kernel : report.kernels) {
    if (kernel.record.start == 0 || kernel.record.end <= kernel.record.start) ++untimed_kernels;
  }
  for (const auto& copy : report.memcpys) {
    if (copy.start == 0 || copy.end < copy.start) ++untimed_copies;
  }
  for (const auto& memset : report.memsets) {
    if (memset.start == 0 || memset.end < memset.start) ++untimed_memsets;
  }
  EXPECT_EQ(untimed_kernels, 0) << "kernel rows without a valid start/end";
  EXPECT_EQ(untimed_copies, 0) << "memcpy rows without a valid start/end";
  EXPECT_EQ(untimed_memsets, 0) << "memset rows without a valid start/end";
}

void ExpectProcessAndDevices(const Report& report, const std::string& path,
                             std::string_view program_fragment) {
  const store::ProcessInfo& process = report.reader->process();
  EXPECT_EQ(process.pid, PidFromReportName(path)) << "%p in the report name is not its pid";
  EXPECT_NE(process.command_line.find(program_fragment), std::string::npos)
      << "command line '" << process.command_line << "' lacks '" << program_fragment << "'";
  const auto& devices = report.reader->devices();
  ASSERT_FALSE(devices.empty()) << "no device rows";
  std::set<std::uint32_t> device_ids;
  for (const auto& device : devices) {
    device_ids.insert(device.record.id);
    EXPECT_FALSE(device.name.empty());
    EXPECT_GT(device.record.num_sms, 0u) << device.name;
    EXPECT_GE(device.record.compute_major, 1u) << device.name;
  }
  for (const auto& kernel : report.kernels) {
    EXPECT_TRUE(device_ids.count(kernel.record.device_id))
        << kernel.name << " ran on device " << kernel.record.device_id << ", which has no row";
  }
}

void RunExpectingOneReport(const ScratchDir& dir, const std::vector<std::string>& program,
                           int exit_code, TracedRun& run, Report& report,
                           const std::vector<std::string>& gpuscope_options) {
  run = RunUnderGpuscope(dir, program, gpuscope_options);
  ASSERT_TRUE(EndedWithExitCode(run, exit_code));
  ASSERT_TRUE(WroteReports(run, 1));
  report = LoadReport(run.reports[0]);
  ASSERT_TRUE(Loaded(report));
  ExpectNothingLost(report);
  ExpectProcessAndDevices(report, run.reports[0], CommandFragment(program));
  // A normal exit says nothing about lost data (issue 25: every run once did).
  if (exit_code == 0) ExpectNoLossLine(run);
}

void ExpectNoLossLine(const TracedRun& run) {
  std::istringstream lines(run.result.err);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("gpuscope") == std::string::npos) continue;
    for (const char* loss : {"arrived after the report was closed", "could not be written",
                             "dropped", "are lost", "is lost", "incomplete"}) {
      EXPECT_EQ(line.find(loss), std::string::npos) << "a line about lost data: " << line;
    }
  }
}

bool HasLineWithAll(const std::string& text, std::initializer_list<std::string_view> fragments) {
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    bool all = true;
    for (std::string_view fragment : fragments) {
      if (line.find(fragment) == std::string::npos) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

}  // namespace gpuscope::gpu_test
