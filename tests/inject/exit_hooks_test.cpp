// The end of the session must run when a Python program dies of an uncaught
// KeyboardInterrupt (CPython finalises, then kills itself with SIGINT: C atexit handlers never
// run). A real python3 loads a probe library (exit_hook_probe.cpp) that registers a marker-
// writing hook through the production RegisterExitHook.
#include "inject/exit_hooks.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>

#include "store/testing/scratch_dir.h"
#include "temp_dir.h"

extern char** environ;

namespace gpuscope::inject::testing {
namespace {

using ::gpuscope::store::testing::ReadWholeFile;

struct PythonRun {
  bool started = false;
  int status = 0;
};

// python3 -c <script> <probe> <marker>
PythonRun RunPython(const std::string& script, const std::string& marker) {
  const std::string probe = GPUSCOPE_EXIT_HOOK_PROBE;
  const char* argv[] = {"python3", "-c", script.c_str(), probe.c_str(), marker.c_str(), nullptr};
  PythonRun run;
  pid_t pid = 0;
  if (posix_spawnp(&pid, "python3", nullptr, nullptr, const_cast<char**>(argv), environ) != 0) {
    return run;
  }
  run.started = waitpid(pid, &run.status, 0) == pid;
  return run;
}

constexpr const char* kRegister =
    "import ctypes, sys\n"
    "probe = ctypes.CDLL(sys.argv[1])\n"
    "assert probe.gpuscope_probe_register(sys.argv[2].encode()) == 0\n";

TEST(ExitHooksTest, RunsWhenPythonDiesOfAnUncaughtKeyboardInterrupt) {
  TempDir dir;
  const std::string marker = dir.path() + "/marker";
  PythonRun run = RunPython(std::string(kRegister) + "raise KeyboardInterrupt\n", marker);
  if (!run.started) GTEST_SKIP() << "python3 is not on PATH";
  ASSERT_TRUE(WIFSIGNALED(run.status)) << "status " << run.status;
  EXPECT_EQ(WTERMSIG(run.status), SIGINT) << "CPython kills itself with SIGINT";
  EXPECT_EQ(ReadWholeFile(marker), "exit hook ran\n") << "the hook ran once, from Py_AtExit";
}

TEST(ExitHooksTest, ANormalPythonExitRunsItFromBothRegistrations) {
  TempDir dir;
  const std::string marker = dir.path() + "/marker";
  PythonRun run = RunPython(std::string(kRegister) + "sys.exit(3)\n", marker);
  if (!run.started) GTEST_SKIP() << "python3 is not on PATH";
  ASSERT_TRUE(WIFEXITED(run.status)) << "status " << run.status;
  EXPECT_EQ(WEXITSTATUS(run.status), 3);
  // Py_AtExit first, then C's atexit: the session's End is idempotent for this reason.
  EXPECT_EQ(ReadWholeFile(marker), "exit hook ran\nexit hook ran\n");
}

}  // namespace
}  // namespace gpuscope::inject::testing
