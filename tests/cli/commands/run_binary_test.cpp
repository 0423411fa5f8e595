// `gpuscope run` end to end, through the real binary: exit codes, what reaches the program
// and what gpuscope prints. None of these programs calls CUDA, so no GPU is needed; the
// injection library is a placeholder file (the driver would load it only in cuInit).
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "../../support/gpuscope_process.h"
#include "../sample_report.h"
#include "../temp_dir.h"

namespace gpuscope::cli {
namespace {

using testing::FileExists;
using testing::GpuscopeProcess;
using testing::ReadWholeFile;
using testing::RunGpuscope;
using testing::TempDir;

class RunBinary : public ::testing::Test {
 protected:
  RunBinary() { placeholder_library_ = dir_.Write("libgpuscope_inject.so", "placeholder"); }

  // The environment every run gets: the placeholder library, and reports in the temp dir.
  std::map<std::string, std::string> Env(std::map<std::string, std::string> extra = {}) {
    extra.emplace("GPUSCOPE_INJECTION_LIBRARY", placeholder_library_);
    return extra;
  }
  std::vector<std::string> Run(std::vector<std::string> program_and_options) {
    std::vector<std::string> args = {"run", "-o", dir_.File("r_%p.sqlite")};
    args.insert(args.end(), program_and_options.begin(), program_and_options.end());
    return args;
  }

  TempDir dir_;
  std::string placeholder_library_;
};

TEST_F(RunBinary, MissingProgramExits127BeforeStarting) {
  testing::Finished result = RunGpuscope(Run({"--", "gpuscope-no-such-program"}), Env());
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_EQ(result.err, "gpuscope: error: gpuscope-no-such-program: command not found\n");
  EXPECT_EQ(result.out, "");
}

TEST_F(RunBinary, NonExecutableFileExits127) {
  std::string data = dir_.Write("data.txt", "not a program", 0644);
  testing::Finished result = RunGpuscope(Run({"--", data}), Env());
  EXPECT_EQ(result.exit_code, 127);
  EXPECT_EQ(result.err, "gpuscope: error: " + data + " is not executable\n");
}

TEST_F(RunBinary, UnknownOptionExits2WithUsage) {
  testing::Finished result = RunGpuscope({"run", "--print-everything", "--", "true"}, Env());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_EQ(result.err.rfind("gpuscope: error: unknown option '--print-everything'\n", 0), 0u)
      << result.err;
  EXPECT_NE(result.err.find("Usage: gpuscope run"), std::string::npos);
  // The shorthand reports the same way.
  result = RunGpuscope({"--print-everything", "true"}, Env());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown option '--print-everything'"), std::string::npos);
}

TEST_F(RunBinary, BadOptionValueExits2) {
  testing::Finished result = RunGpuscope({"--demangling", "maybe", "true"}, Env());
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("expects 'on' or 'off', not 'maybe'"), std::string::npos);
}

TEST_F(RunBinary, UnwritableReportDirectoryFailsBeforeTheProgramStarts) {
  std::string marker = dir_.File("program_ran");
  testing::Finished result =
      RunGpuscope({"run", "-o", dir_.File("no_such_dir/r.sqlite"), "--", "touch", marker}, Env());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err, "gpuscope: error: report directory '" + dir_.File("no_such_dir") +
                            "' does not exist\n");
  EXPECT_FALSE(FileExists(marker));
}

TEST_F(RunBinary, ExistingReportWithoutForceFailsBeforeTheProgramStarts) {
  dir_.Write("fixed.sqlite", "an earlier report");
  std::string marker = dir_.File("program_ran");
  testing::Finished result =
      RunGpuscope({"run", "-o", dir_.File("fixed.sqlite"), "--", "touch", marker}, Env());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("already exists"), std::string::npos) << result.err;
  EXPECT_FALSE(FileExists(marker));

  result =
      RunGpuscope({"run", "-f", "-o", dir_.File("fixed.sqlite"), "--", "touch", marker}, Env());
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_TRUE(FileExists(marker));
}

TEST_F(RunBinary, UnsetPatternVariableFailsBeforeTheProgramStarts) {
  std::string marker = dir_.File("program_ran");
  testing::Finished result = RunGpuscope(
      {"run", "-o", dir_.File("rank%q{GPUSCOPE_TEST_UNSET}.sqlite"), "--", "touch", marker},
      Env({{"GPUSCOPE_TEST_UNSET", ""}}));
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("environment variable GPUSCOPE_TEST_UNSET is not set"),
            std::string::npos);
  EXPECT_FALSE(FileExists(marker));
}

TEST_F(RunBinary, MissingInjectionLibraryFailsWithExit1) {
  std::string marker = dir_.File("program_ran");
  testing::Finished result = RunGpuscope(Run({"--", "touch", marker}),
                                         {{"GPUSCOPE_INJECTION_LIBRARY", dir_.File("none.so")}});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("the injection library " + dir_.File("none.so") + " was not found"),
            std::string::npos)
      << result.err;
  EXPECT_FALSE(FileExists(marker));
}

TEST_F(RunBinary, StdinStdoutStderrAndExitCodePassThrough) {
  testing::Finished result = RunGpuscope(
      Run({"--", "sh", "-c", "read x; echo out:$x; echo err 1>&2; exit 3"}), Env(), "hello\n");
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.out, "out:hello\n");  // nothing of gpuscope's on stdout
  EXPECT_NE(result.err.find("err\n"), std::string::npos);
  EXPECT_NE(result.err.find("== Program exited with code 3\n"), std::string::npos) << result.err;
}

TEST_F(RunBinary, ShorthandRunsTheProgram) {
  testing::Finished result = RunGpuscope(
      {"-o", dir_.File("r_%p.sqlite"), "sh", "-c", "echo $0 $1; exit 5", "a0", "a1"}, Env());
  EXPECT_EQ(result.exit_code, 5);
  EXPECT_EQ(result.out, "a0 a1\n");
}

TEST_F(RunBinary, CleanExitIsNotAnnounced) {
  testing::Finished result = RunGpuscope(Run({"--", "true"}), Env());
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.err.find("Program exited"), std::string::npos) << result.err;
}

TEST_F(RunBinary, ProgramKilledBySigkillGives137) {
  testing::Finished result = RunGpuscope(Run({"--", "sh", "-c", "kill -9 $$"}), Env());
  EXPECT_EQ(result.exit_code, 137);
  EXPECT_EQ(result.signal, SIGKILL) << "gpuscope must end the way the program did";
  EXPECT_NE(result.err.find("== Program terminated by signal 9 (SIGKILL)\n"), std::string::npos)
      << result.err;
}

TEST_F(RunBinary, SigtermToGpuscopeReachesTheProgram) {
  std::string ready = dir_.File("ready");
  GpuscopeProcess process(Run({"--", "sh", "-c", "touch " + ready + "; exec sleep 30"}), Env());
  for (int i = 0; i < 1000 && !FileExists(ready); ++i) usleep(10000);
  usleep(50000);
  ASSERT_EQ(kill(process.pid(), SIGTERM), 0);
  testing::Finished result = process.Finish();
  EXPECT_EQ(result.exit_code, 128 + SIGTERM);
  // Killed by SIGTERM itself (Python's subprocess sees -15, not 143), after printing.
  EXPECT_EQ(result.signal, SIGTERM);
  EXPECT_NE(result.err.find("Program terminated by signal 15 (SIGTERM)"), std::string::npos)
      << result.err;
}

// `kill -INT <gpuscope>` and `timeout -s INT gpuscope ...` reach gpuscope alone: it
// forwards the signal, prints how the program ended, and ends by SIGINT itself.
TEST_F(RunBinary, SigintFromAnotherProcessReachesTheProgram) {
  std::string ready = dir_.File("ready");
  GpuscopeProcess process(Run({"--", "sh", "-c", "touch " + ready + "; exec sleep 5"}), Env());
  for (int i = 0; i < 1000 && !FileExists(ready); ++i) usleep(10000);
  usleep(50000);
  ASSERT_EQ(kill(process.pid(), SIGINT), 0);
  testing::Finished result = process.Finish();
  EXPECT_EQ(result.signal, SIGINT);
  EXPECT_NE(result.err.find("Program terminated by signal 2 (SIGINT)"), std::string::npos)
      << result.err;
}

// A terminal's Ctrl-C goes to the whole foreground process group (si_code SI_KERNEL): the
// program gets it directly, and gpuscope must live on to say how the program ended.
TEST_F(RunBinary, TerminalCtrlCEndsTheProgramAndGpuscopeReportsIt) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    GTEST_SKIP() << "no pseudo-terminals here";
  }
  std::string ready = dir_.File("ready");
  GpuscopeProcess process(Run({"--", "sh", "-c", "touch " + ready + "; exec sleep 5"}), Env(), "",
                          ptsname(master));
  for (int i = 0; i < 1000 && !FileExists(ready); ++i) usleep(10000);
  usleep(50000);
  ASSERT_EQ(write(master, "\x03", 1), 1);  // Ctrl-C, with the pty's default ISIG
  testing::Finished result = process.Finish();
  close(master);
  EXPECT_NE(result.err.find("Program terminated by signal 2 (SIGINT)"), std::string::npos)
      << result.err;
  EXPECT_EQ(result.signal, SIGINT);
}

TEST_F(RunBinary, NoCudaActivityIsExplained) {
  testing::Finished result = RunGpuscope(Run({"--", "sh", "-c", "echo $$"}), Env());
  EXPECT_EQ(result.exit_code, 0);
  std::string pid = result.out.substr(0, result.out.find('\n'));
  const std::string line = "==" + pid + "== gpuscope: no CUDA activity was recorded: ";
  std::size_t at = result.err.find(line);
  ASSERT_NE(at, std::string::npos) << result.err;
  std::string reason = result.err.substr(at + line.size());
  reason = reason.substr(0, reason.find('\n'));
  void* driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (driver == nullptr) {
    EXPECT_EQ(reason, "no NVIDIA driver was found (libcuda.so.1 could not be loaded)");
  } else {
    // With a driver, either cuInit fails by name or the program simply never called it.
    EXPECT_TRUE(reason ==
                    "the program did not initialise CUDA, or the CUDA driver did not load "
                    "gpuscope's library" ||
                reason.rfind("CUDA cannot be used here: cuInit failed with CUDA_ERROR_", 0) == 0)
        << reason;
  }
}

// The traced process's side of the manifest, played by a shell script: the injection
// library would create the report and register it; here the program copies a real report
// (reference 002's `add` program) and registers that, so everything the launcher does after
// the program ends runs without a GPU.
class RunBinaryWithReports : public RunBinary {
 protected:
  RunBinaryWithReports() { testing::WriteAddProgramReport(dir_.File("sample.sqlite"), 4242); }

  // Shell commands that register a copy of the sample report as process `pid_expr`'s.
  std::string Register(const std::string& pid_expr, const std::string& parent_expr) {
    std::string report = dir_.path() + "/r_" + pid_expr + ".sqlite";
    return "cp " + dir_.File("sample.sqlite") + " " + report + "; printf '%s\\t%s\\t%s\\n' " +
           pid_expr + " " + parent_expr + " " + report + " >> \"$GPUSCOPE_MANIFEST\"; ";
  }
  std::string ReportOf(const std::string& pid) { return dir_.File("r_" + pid + ".sqlite"); }
};

TEST_F(RunBinaryWithReports, PrintsNvprofsFramingAndSummaryForTheReport) {
  testing::Finished result =
      RunGpuscope(Run({"--", "sh", "-c", Register("$$", "$PPID") + "echo $$"}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string pid = result.out.substr(0, result.out.find('\n'));
  std::string prefix = "==" + pid + "== ";
  std::string framing_start = prefix + "Profiling application: ./sample\n" + prefix +
                              "Profiling result:\n" + testing::kAddProgramSummary + prefix +
                              "Report: " + ReportOf(pid) + "\n";
  EXPECT_NE(result.err.find(framing_start), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("no CUDA activity"), std::string::npos);
}

TEST_F(RunBinaryWithReports, RootFirstThenChildren) {
  testing::Finished result = RunGpuscope(
      Run({"--", "sh", "-c", Register("99999", "$$") + Register("$$", "$PPID") + "echo $$"}),
      Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string pid = result.out.substr(0, result.out.find('\n'));
  std::size_t root = result.err.find("==" + pid + "== Report: " + ReportOf(pid));
  std::size_t child = result.err.find("==99999== Report: " + ReportOf("99999"));
  ASSERT_NE(root, std::string::npos) << result.err;
  ASSERT_NE(child, std::string::npos) << result.err;
  EXPECT_LT(root, child);
  EXPECT_NE(result.err.find("==99999== Profiling application: ./sample\n"), std::string::npos);
}

TEST_F(RunBinaryWithReports, KilledProgramStillGetsItsSummary) {
  testing::Finished result =
      RunGpuscope(Run({"--", "sh", "-c", Register("$$", "$PPID") + "echo $$; kill -9 $$"}), Env());
  EXPECT_EQ(result.exit_code, 137);
  std::string pid = result.out.substr(0, result.out.find('\n'));
  std::size_t ending = result.err.find("==" + pid + "== Program terminated by signal 9 (SIGKILL)");
  std::size_t summary = result.err.find(testing::kAddProgramSummary);
  ASSERT_NE(ending, std::string::npos) << result.err;
  ASSERT_NE(summary, std::string::npos) << result.err;
  EXPECT_LT(ending, summary);
  EXPECT_EQ(result.signal, SIGKILL);
}

// gpuscope ends by the program's signal only after its log file is complete.
TEST_F(RunBinaryWithReports, KilledProgramsLogFileIsCompleteBeforeGpuscopeEnds) {
  std::string log = dir_.File("log.txt");
  testing::Finished result = RunGpuscope(
      Run({"--log-file", log, "--", "sh", "-c", Register("$$", "$PPID") + "kill -9 $$"}), Env());
  EXPECT_EQ(result.signal, SIGKILL);
  std::string text = ReadWholeFile(log);
  EXPECT_NE(text.find("Program terminated by signal 9 (SIGKILL)"), std::string::npos) << text;
  EXPECT_NE(text.find(testing::kAddProgramSummary), std::string::npos) << text;
  EXPECT_NE(text.find("== Report: "), std::string::npos) << text;
}

TEST_F(RunBinaryWithReports, PrintGpuSummaryPrintsOnlyThatHalf) {
  testing::Finished result =
      RunGpuscope(Run({"--print-gpu-summary", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find(" GPU activities:   56.32%"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("API calls:"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, PrintApiSummaryPrintsOnlyThatHalf) {
  testing::Finished result =
      RunGpuscope(Run({"--print-api-summary", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("      API calls:   99.92%"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("GPU activities:"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, GpuTraceReplacesTheSummary) {
  testing::Finished result =
      RunGpuscope(Run({"--print-gpu-trace", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("Duration"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("add(int, int, int*)"), std::string::npos);
  EXPECT_NE(result.err.find("[CUDA memcpy DtoH]"), std::string::npos);
  EXPECT_EQ(result.err.find("GPU activities:"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("cudaMalloc"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, ApiTraceListsTheCalls) {
  testing::Finished result =
      RunGpuscope(Run({"--print-api-trace", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("cudaMalloc"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("cudaLaunchKernel"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("GPU activities:"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, CsvAndDemanglingOffReachThePrinter) {
  testing::Finished result = RunGpuscope(
      Run({"--csv", "--demangling", "off", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("\"Type\",\"Time(%)\""), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("_Z3addiiPi"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, QuietPrintsNoSummary) {
  testing::Finished result =
      RunGpuscope(Run({"--quiet", "--", "sh", "-c", Register("$$", "$PPID")}), Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_EQ(result.err, "");
}

TEST_F(RunBinaryWithReports, LossesArePrintedEvenWhenQuiet) {
  model::CollectionCounters losses;
  losses.dropped_records = 3;
  testing::WriteAddProgramReport(dir_.File("lossy.sqlite"), 4242, losses);
  testing::Finished result =
      RunGpuscope(Run({"--quiet", "--", "sh", "-c",
                       "printf '%s\\t1\\t%s\\n' $$ " + dir_.File("lossy.sqlite") +
                           " >> \"$GPUSCOPE_MANIFEST\"; echo $$"}),
                  Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  std::string pid = result.out.substr(0, result.out.find('\n'));
  EXPECT_EQ(result.err.rfind("==" + pid + "== Warning: 3 records were dropped by CUPTI", 0), 0u)
      << result.err;
  EXPECT_EQ(result.err.find("GPU activities"), std::string::npos);
}

TEST_F(RunBinaryWithReports, UnreadableReportIsAnErrorLineAndTheExitCodeStaysThePrograms) {
  std::string bad = dir_.Write("bad.sqlite", "garbage");
  testing::Finished result = RunGpuscope(
      Run({"--", "sh", "-c",
           "printf '%s\\t1\\t%s\\n' $$ " + bad + " >> \"$GPUSCOPE_MANIFEST\"; echo $$; exit 6"}),
      Env());
  EXPECT_EQ(result.exit_code, 6);
  std::string pid = result.out.substr(0, result.out.find('\n'));
  // One line: the reader's reason, naming the file.
  std::string error = "==" + pid + "== Error: ";
  std::size_t at = result.err.find(error);
  ASSERT_NE(at, std::string::npos) << result.err;
  EXPECT_NE(result.err.find(bad, at), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("==" + pid + "== Warning"), std::string::npos) << result.err;
}

TEST_F(RunBinaryWithReports, CutManifestLineIsReportedNotSkipped) {
  testing::Finished result = RunGpuscope(
      Run({"--", "sh", "-c",
           Register("$$", "$PPID") + "printf '77\\t1\\t/cut' >> \"$GPUSCOPE_MANIFEST\""}),
      Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.err.find("unreadable manifest line"), std::string::npos) << result.err;
  EXPECT_NE(result.err.find("GPU activities:"), std::string::npos) << result.err;
}

// name -> value of the program's environment, as `env` printed it.
std::map<std::string, std::string> ParseEnv(const std::string& text) {
  std::map<std::string, std::string> env;
  std::size_t begin = 0;
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(begin, end - begin);
    begin = end + 1;
    std::size_t equals = line.find('=');
    if (equals != std::string::npos) env[line.substr(0, equals)] = line.substr(equals + 1);
  }
  return env;
}

TEST_F(RunBinary, ProgramGetsTheInjectionContract) {
  testing::Finished result =
      RunGpuscope({"run", "-o", "rel_%p.sqlite", "--", "sh", "-c", "echo PID=$$; env"},
                  Env({{"LD_LIBRARY_PATH", "/opt/app/lib"}, {"GPUSCOPE_CUPTI_DIR", "/opt/cupti"}}),
                  "", dir_.path());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto env = ParseEnv(result.out);
  char resolved[4096];
  ASSERT_NE(realpath(placeholder_library_.c_str(), resolved), nullptr);
  EXPECT_EQ(env["CUDA_INJECTION64_PATH"], resolved);
  EXPECT_EQ(env["NVTX_INJECTION64_PATH"], resolved);
  EXPECT_EQ(env["LD_LIBRARY_PATH"], "/opt/cupti:/opt/app/lib");
  EXPECT_EQ(env["GPUSCOPE_REPORT"], dir_.path() + "/rel_%p.sqlite");
  EXPECT_EQ(env["GPUSCOPE_ROOT_PID"], env["PID"]);
  EXPECT_EQ(env["GPUSCOPE_FOLLOW_CHILDREN"], "1");
  EXPECT_EQ(env["GPUSCOPE_FORCE_OVERWRITE"], "0");
  EXPECT_EQ(env["GPUSCOPE_PROFILE_FROM_START"], "1");
  EXPECT_NE(env["GPUSCOPE_MANIFEST"].find("/gpuscope-manifest-"), std::string::npos);
  // The missing CUPTI directory is worth a warning, not a failure.
  EXPECT_NE(result.err.find("libcupti.so.13 was not found in /opt/cupti"), std::string::npos)
      << result.err;
  // The manifest is the launcher's temporary file: gone after the run.
  EXPECT_FALSE(FileExists(env["GPUSCOPE_MANIFEST"]));
}

TEST_F(RunBinary, OptionsReachTheProgramsEnvironment) {
  testing::Finished result =
      RunGpuscope(Run({"--profile-child-processes", "off", "--profile-from-start=off", "-f", "--",
                       "sh", "-c", "env"}),
                  Env());
  ASSERT_EQ(result.exit_code, 0) << result.err;
  auto env = ParseEnv(result.out);
  EXPECT_EQ(env["GPUSCOPE_FOLLOW_CHILDREN"], "0");
  EXPECT_EQ(env["GPUSCOPE_PROFILE_FROM_START"], "0");
  EXPECT_EQ(env["GPUSCOPE_FORCE_OVERWRITE"], "1");
  EXPECT_EQ(env["GPUSCOPE_QUIET"], "0");
  // Without children traced, the explanation says so.
  EXPECT_NE(result.err.find("(child processes were not traced)"), std::string::npos) << result.err;
}

TEST_F(RunBinary, LogFileGetsGpuscopesLinesNamedWithTheProgramsPid) {
  testing::Finished result = RunGpuscope(
      Run({"--log-file", dir_.File("log_%p.txt"), "--", "sh", "-c", "echo $$; exit 4"}), Env());
  EXPECT_EQ(result.exit_code, 4);
  std::string pid = result.out.substr(0, result.out.find('\n'));
  EXPECT_EQ(result.err, "");
  std::string log = ReadWholeFile(dir_.File("log_" + pid + ".txt"));
  EXPECT_NE(log.find("==" + pid + "== gpuscope is profiling process " + pid +
                     ", command: sh -c echo $$; exit 4\n"),
            std::string::npos)
      << log;
  EXPECT_NE(log.find("==" + pid + "== Program exited with code 4\n"), std::string::npos) << log;
  EXPECT_NE(log.find("==" + pid + "== gpuscope: no CUDA activity was recorded"), std::string::npos);
}

// With the output in a log file, the injection library is told to keep the program's
// stderr free of gpuscope's banner.
TEST_F(RunBinary, LogFileAndQuietSilenceTheInjectionsBanner) {
  for (const std::vector<std::string>& option :
       {std::vector<std::string>{"--quiet"}, std::vector<std::string>{"--log-file", "%1"}}) {
    std::vector<std::string> args = option;
    for (const char* word : {"--", "sh", "-c", "echo QUIET=$GPUSCOPE_QUIET >&2"})
      args.push_back(word);
    testing::Finished result = RunGpuscope(Run(args), Env());
    ASSERT_EQ(result.exit_code, 0) << result.err;
    EXPECT_NE(result.err.find("QUIET=1"), std::string::npos) << option[0] << ": " << result.err;
  }
}

TEST_F(RunBinary, LogFilePercentOneIsStdout) {
  testing::Finished result =
      RunGpuscope(Run({"--log-file", "%1", "--", "sh", "-c", "exit 4"}), Env());
  EXPECT_EQ(result.exit_code, 4);
  EXPECT_NE(result.out.find("== Program exited with code 4\n"), std::string::npos);
  EXPECT_EQ(result.err, "");
}

TEST_F(RunBinary, BadLogFileDirectoryFailsBeforeTheProgramStarts) {
  std::string marker = dir_.File("program_ran");
  testing::Finished result =
      RunGpuscope(Run({"--log-file", dir_.File("none/log.txt"), "--", "touch", marker}), Env());
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_NE(result.err.find("log file directory"), std::string::npos) << result.err;
  EXPECT_FALSE(FileExists(marker));
}

TEST_F(RunBinary, HelpAndVersionGoToStdout) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--help"},
                                             {"-h"},
                                             {"help"},
                                             {"run", "--help"},
                                             {"stats", "--help"},
                                             {"help", "run"},
                                             {"--version"}}) {
    testing::Finished result = RunGpuscope(args);
    EXPECT_EQ(result.exit_code, 0) << args[0];
    EXPECT_FALSE(result.out.empty()) << args[0];
    EXPECT_EQ(result.err, "") << args[0];
  }
  testing::Finished help = RunGpuscope({"--help"});
  EXPECT_NE(help.out.find("127"), std::string::npos);
  EXPECT_NE(help.out.find("Exit codes:"), std::string::npos);
  EXPECT_EQ(RunGpuscope({"--version"}).out.rfind("gpuscope ", 0), 0u);
}

// (`gpuscope` alone prints the help: OneGrammar.GpuscopeAloneAndHelpOfHelpPrintTheHelp.)
TEST_F(RunBinary, UnknownHelpTopicExits2) {
  testing::Finished result = RunGpuscope({"help", "frobnicate"});
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("unknown command 'frobnicate'"), std::string::npos);
}

}  // namespace
}  // namespace gpuscope::cli

namespace gpuscope::cli {
namespace {

// `run --gpu-metrics --list`: the sets checked against CUPTI's PM sampling catalog of GH100,
// through the real binary, with no GPU and no program.
TEST(RunGpuMetricsList, ListsEverySetForGh100) {
  testing::Finished result = testing::RunGpuscope({"run", "--gpu-metrics", "--list"}, {});
  EXPECT_EQ(result.exit_code, 0) << result.err;
  EXPECT_NE(result.out.find("GPU metric sets for GH100"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("sm__cycles_active.avg.pct_of_peak_sustained_elapsed"),
            std::string::npos);
  EXPECT_NE(result.out.find("\nmemory: "), std::string::npos);
  EXPECT_EQ(result.out.find("NOT IN THE CATALOG"), std::string::npos) << result.out;
  EXPECT_EQ(result.out.find("cannot configure"), std::string::npos) << result.out;
}

TEST(RunGpuMetricsList, UnknownChipIsOneLine) {
  testing::Finished result =
      testing::RunGpuscope({"run", "--gpu-metrics-set", "list", "--chip", "XX1"}, {});
  EXPECT_EQ(result.exit_code, 1);
  EXPECT_EQ(result.err.rfind("gpuscope: error: unknown chip \"XX1\"", 0), 0u) << result.err;
  EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1);
}

}  // namespace
}  // namespace gpuscope::cli
