// How the traced program ended, and what gpuscope says and returns because of it: the
// program's own exit code, or 128+N when signal N killed it (what shells report).
#pragma once

#include <string>

namespace gpuscope::cli {

struct ProgramOutcome {
  bool killed_by_signal = false;
  int exit_code = 0;            // valid when !killed_by_signal
  int signal = 0;               // valid when killed_by_signal
  bool status_unknown = false;  // waitpid failed: gpuscope cannot tell how it ended
};

// From a waitpid() status.
ProgramOutcome OutcomeFromWaitStatus(int status);

// The exit code gpuscope itself returns.
int ExitCodeFor(const ProgramOutcome& outcome);

// "Program exited with code 3", "Program terminated by signal 9 (SIGKILL)", or "" for a
// clean exit (nvprof says nothing then).
std::string DescribeOutcome(const ProgramOutcome& outcome);

// "SIGKILL"; "signal 40" when the signal has no name (real-time signals).
std::string SignalName(int signal);

}  // namespace gpuscope::cli
