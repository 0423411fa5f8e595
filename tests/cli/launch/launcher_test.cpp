#include "cli/launch/launcher.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "../temp_dir.h"
#include "cli/launch/child_environment.h"

namespace gpuscope::cli {
namespace {

LaunchRequest Shell(const std::string& script, std::vector<std::string> environment = {}) {
  return {"/bin/sh", {"sh", "-c", script}, std::move(environment)};
}

TEST(Launcher, ReturnsTheProgramsExitCode) {
  StartResult started = StartProgram(Shell("exit 7"));
  ASSERT_TRUE(started.ok()) << started.failure;
  ProgramOutcome outcome = WaitForProgram(started.pid);
  EXPECT_FALSE(outcome.killed_by_signal);
  EXPECT_EQ(outcome.exit_code, 7);
}

TEST(Launcher, ReportsTheSignalThatKilledTheProgram) {
  StartResult started = StartProgram(Shell("kill -9 $$"));
  ASSERT_TRUE(started.ok());
  ProgramOutcome outcome = WaitForProgram(started.pid);
  EXPECT_TRUE(outcome.killed_by_signal);
  EXPECT_EQ(outcome.signal, SIGKILL);
}

TEST(Launcher, GivesTheProgramExactlyTheRequestedEnvironmentPlusItsPid) {
  testing::TempDir dir;
  std::string out = dir.File("env.txt");
  StartResult started = StartProgram(Shell(
      "echo \"$$ $GPUSCOPE_ROOT_PID $ONLY_THIS ${HOME:-unset}\" > " + out, {"ONLY_THIS=yes"}));
  ASSERT_TRUE(started.ok());
  ASSERT_EQ(WaitForProgram(started.pid).exit_code, 0);
  std::string pid = std::to_string(started.pid);
  EXPECT_EQ(testing::ReadWholeFile(out), pid + " " + pid + " yes unset\n");
}

TEST(Launcher, KeepsArgvZeroAsTyped) {
  testing::TempDir dir;
  std::string out = dir.File("argv0.txt");
  StartResult started = StartProgram({"/bin/sh", {"my-name", "-c", "echo $0 > " + out}, {}});
  ASSERT_TRUE(started.ok());
  WaitForProgram(started.pid);
  EXPECT_EQ(testing::ReadWholeFile(out), "my-name\n");
}

TEST(Launcher, ExecFailureComesBackThroughThePipeAs127) {
  // Executable, but its interpreter does not exist: execve fails in the child.
  testing::TempDir dir;
  std::string script = dir.Write("broken", "#!/nonexistent/interpreter\n", 0755);
  StartResult started = StartProgram({script, {"broken"}, {}});
  EXPECT_FALSE(started.ok());
  EXPECT_EQ(started.failure_exit_code, 127);
  EXPECT_EQ(started.failure, "broken: No such file or directory");
}

TEST(Launcher, ScriptWithoutInterpreterLineRunsUnderSh) {
  testing::TempDir dir;
  std::string out = dir.File("ran.txt");
  std::string script = dir.Write("plain", "echo \"ran $1\" > " + out + "\n", 0755);
  StartResult started = StartProgram({script, {"plain", "arg1"}, {}});
  ASSERT_TRUE(started.ok()) << started.failure;
  EXPECT_EQ(WaitForProgram(started.pid).exit_code, 0);
  EXPECT_EQ(testing::ReadWholeFile(out), "ran arg1\n");
}

TEST(Launcher, ForwardsSigtermToTheProgramAndSurvives) {
  testing::TempDir dir;
  std::string ready = dir.File("ready");
  StartResult started = StartProgram(Shell("touch " + ready + "; exec sleep 30"));
  ASSERT_TRUE(started.ok());
  for (int i = 0; i < 500 && !testing::FileExists(ready); ++i) usleep(10000);
  usleep(50000);  // let sh exec sleep
  // The launcher (this test process) gets SIGTERM; the forwarding handler passes it on.
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  ProgramOutcome outcome = WaitForProgram(started.pid);
  EXPECT_TRUE(outcome.killed_by_signal);
  EXPECT_EQ(outcome.signal, SIGTERM);
}

// `kill -INT <gpuscope>` and `timeout -s INT` reach the launcher alone: it passes the
// signal on and lives on to print the summary. (A terminal's Ctrl-C, which the launcher
// leaves to the process group, is tested through the real binary on a pty.)
TEST(Launcher, ForwardsSigintFromAnotherProcessSurvivesAndRestoresIt) {
  struct sigaction before {};
  sigaction(SIGINT, nullptr, &before);
  testing::TempDir dir;
  std::string ready = dir.File("ready");
  StartResult started = StartProgram(Shell("touch " + ready + "; exec sleep 30"));
  ASSERT_TRUE(started.ok());
  for (int i = 0; i < 500 && !testing::FileExists(ready); ++i) usleep(10000);
  usleep(50000);                         // let sh exec sleep
  ASSERT_EQ(kill(getpid(), SIGINT), 0);  // si_code SI_USER
  ProgramOutcome outcome = WaitForProgram(started.pid);
  EXPECT_TRUE(outcome.killed_by_signal);
  EXPECT_EQ(outcome.signal, SIGINT);
  struct sigaction after {};
  sigaction(SIGINT, nullptr, &after);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

// The SigIgn mask of /proc/<pid>/status: which signals a process ignores.
unsigned long long IgnoredSignals(const std::string& status_text) {
  std::size_t at = status_text.find("SigIgn:");
  if (at == std::string::npos) return ~0ull;
  return std::stoull(status_text.substr(at + 7), nullptr, 16);
}

TEST(Launcher, ProgramInheritsTheCallersDispositionsNotTheLaunchers) {
  testing::TempDir dir;
  std::string out = dir.File("status.txt");
  unsigned long long ours = IgnoredSignals(testing::ReadWholeFile("/proc/self/status"));
  // grep reads its own status: the launcher ignores SIGINT while the program runs, and that
  // must not leak into the program.
  StartResult started = StartProgram(Shell("exec grep SigIgn /proc/self/status > " + out));
  ASSERT_TRUE(started.ok());
  WaitForProgram(started.pid);
  unsigned long long program = IgnoredSignals(testing::ReadWholeFile(out));
  for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) {
    unsigned long long bit = 1ull << (signal - 1);
    EXPECT_EQ(program & bit, ours & bit) << "signal " << signal;
  }
}

}  // namespace
}  // namespace gpuscope::cli
