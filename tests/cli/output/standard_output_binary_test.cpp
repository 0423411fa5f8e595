// What gpuscope prints on standard output, through the real binary: a write that fails is a
// failure (exit 1, one line), and a terminal is never driven by what a report holds.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../export/test_reports.h"
#include "../../support/gpuscope_process.h"
#include "../recorded_reports.h"
#include "../sample_report.h"
#include "../temp_dir.h"

extern char** environ;

namespace gpuscope::cli {
namespace {

using exporter::testing::ExecSql;
using testing::GpuscopeBinary;
using testing::ReadWholeFile;
using testing::RecordedReport;
using testing::TempDir;

struct Ended {
  int exit_code = -1;
  std::string out;  // what a pseudo-terminal showed, when stdout was one
  std::string err;
};

// Runs gpuscope with stdout on `stdout_fd` (or on a new pseudo-terminal when -1, whose
// output is returned) and stderr into a file.
Ended RunWithStdout(const std::vector<std::string>& args, int stdout_fd, const TempDir& dir) {
  Ended ended;
  int terminal = -1;
  if (stdout_fd < 0) {
    terminal = posix_openpt(O_RDWR | O_NOCTTY);
    EXPECT_GE(terminal, 0);
    EXPECT_EQ(grantpt(terminal), 0);
    EXPECT_EQ(unlockpt(terminal), 0);
    stdout_fd = open(ptsname(terminal), O_RDWR | O_NOCTTY);
    EXPECT_GE(stdout_fd, 0);
  }
  std::string err_path = dir.File("stderr.txt");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, stdout_fd, STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<std::string> argv_strings = {GpuscopeBinary()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_strings) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  if (terminal >= 0) {
    close(stdout_fd);
    // The terminal's output until the last writer is gone (EIO on Linux).
    char buffer[4096];
    ssize_t got;
    while ((got = read(terminal, buffer, sizeof buffer)) > 0) ended.out.append(buffer, got);
    close(terminal);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ended.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  ended.err = ReadWholeFile(err_path);
  return ended;
}

// `gpuscope stats a.sqlite > /dev/full` printed nothing and exited 0.
TEST(StandardOutput, AFailedWriteIsAnErrorInEveryPrintingCommand) {
  TempDir dir;
  std::string trace = dir.File("trace.sqlite");
  testing::WriteAddProgramReport(trace, 4242);
  std::string profiled = dir.File("profiled.sqlite");
  std::filesystem::copy_file(RecordedReport("h100_metrics_full.sqlite"), profiled);
  int full = open("/dev/full", O_WRONLY);
  if (full < 0) GTEST_SKIP() << "this machine has no /dev/full";
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"stats", trace},
           {"stats", "--format", "csv", trace},
           {"stats", "--page", "details", profiled},
           {"diff", trace, trace},
           {"source", profiled},
           {"roofline", profiled},
           {"ranks", trace},
           {"export", "-o", "-", trace}}) {
    Ended ended = RunWithStdout(args, full, dir);
    EXPECT_EQ(ended.exit_code, 1) << args[0] << " " << args[1] << ": " << ended.err;
    EXPECT_NE(ended.err.find("gpuscope: error: cannot write standard output: No space left on "
                             "device\n"),
              std::string::npos)
        << args[0] << " " << args[1] << ": " << ended.err;
  }
  close(full);
}

constexpr const char* kHostileText =
    "'k' || char(27) || ']0;owned' || char(7) || char(13) || 'x' || char(194) || char(155) || "
    "'2J'";

// CSV and every other table reach a terminal with control characters shown, not obeyed.
TEST(StandardOutput, ATerminalIsNeverDrivenByAReportsStrings) {
  TempDir dir;
  std::string trace = dir.File("trace.sqlite");
  testing::WriteAddProgramReport(trace, 4242);
  ExecSql(trace, std::string("UPDATE strings SET value = ") + kHostileText + ", demangled = " +
                     kHostileText + " WHERE id = (SELECT name_id FROM kernels LIMIT 1);");
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"stats", "--format", "csv", "-r", "cuda_gpu_kern_sum", trace},
           {"export", "--format", "chrome", "-o", "-", trace},
           {"stats", trace}}) {
    Ended ended = RunWithStdout(args, -1, dir);
    EXPECT_EQ(ended.exit_code, 0) << args[0] << ": " << ended.err;
    EXPECT_EQ(ended.out.find('\x1b'), std::string::npos) << ended.out;
    EXPECT_EQ(ended.out.find('\x07'), std::string::npos) << ended.out;
    EXPECT_EQ(ended.out.find("\xc2\x9b"), std::string::npos) << ended.out;
    EXPECT_NE(ended.out.find("]0;owned"), std::string::npos) << ended.out;
  }
}

// The program's command line, as the report holds it, in the header of `stats --page details`.
TEST(StandardOutput, TheRecordedCommandLineIsPrintedEscaped) {
  TempDir dir;
  std::string profiled = dir.File("profiled.sqlite");
  std::filesystem::copy_file(RecordedReport("h100_metrics_full.sqlite"), profiled);
  ExecSql(profiled, std::string("UPDATE process SET command_line = ") + kHostileText + ";");
  testing::Finished details = testing::RunGpuscope({"stats", "--page", "details", profiled});
  EXPECT_EQ(details.exit_code, 0) << details.err;
  EXPECT_EQ(details.out.find('\x1b'), std::string::npos) << details.out;
  EXPECT_NE(details.out.find("k\\x1b]0;owned\\x07\\x0dx"), std::string::npos) << details.out;
}

}  // namespace
}  // namespace gpuscope::cli
