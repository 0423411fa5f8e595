// Starts the traced program and waits for it, as a shell would: the program keeps gpuscope's
// stdin, stdout and stderr, and signals meant for it reach it.
//
// Signals: the terminal sends SIGINT to the whole foreground process group, so the program
// gets Ctrl-C on its own and the launcher does not act on it while waiting (it must survive
// to print the summary). A SIGINT that another process sent to the launcher alone
// (`kill -INT`, `timeout -s INT`) is forwarded to the program, as are SIGTERM, SIGHUP and
// SIGQUIT (kill, a batch scheduler, a closed ssh session). Dispositions are restored when
// the wait ends.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "cli/launch/program_outcome.h"

namespace gpuscope::cli {

struct LaunchRequest {
  std::string executable;         // the resolved path (ResolveProgram); no PATH search here
  std::vector<std::string> argv;  // argv[0] as the user typed it
  // "NAME=value" entries. The launcher adds GPUSCOPE_ROOT_PID=<the program's pid>.
  std::vector<std::string> environment;
};

struct StartResult {
  pid_t pid = -1;             // > 0: the program is running (exec succeeded)
  int failure_exit_code = 0;  // otherwise: 127 when exec failed, 1 when fork/pipe failed
  std::string failure;        // one line, naming the program
  bool ok() const { return pid > 0; }
};

// Forks and execs. Returns once exec has succeeded or failed (a close-on-exec pipe tells the
// two apart), so a program that cannot run is reported with its errno, not as "exit 127".
// A file that the kernel cannot exec (ENOEXEC: a script without "#!") runs under /bin/sh,
// as execvp does.
StartResult StartProgram(const LaunchRequest& request);

// Waits for the program StartProgram started, then restores the signal dispositions.
ProgramOutcome WaitForProgram(pid_t pid);

}  // namespace gpuscope::cli
