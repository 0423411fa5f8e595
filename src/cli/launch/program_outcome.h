// How the traced program ended, and what gpuscope says and returns because of it: the
// program's own exit code, or, when signal N killed it, the same death for gpuscope (which
// a shell shows as 128+N).
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

// The exit code gpuscope itself returns; 128+N (what a shell shows) for a program killed by
// signal N, used when EndLikeTheProgram could not end gpuscope by that signal.
int ExitCodeFor(const ProgramOutcome& outcome);

// `gpuscope profile`'s exit code once it printed its results: the program's own failure
// first (its exit code, or 128+N), else 1 when gpuscope reported an error of its own
// ("gpuscope: error: no report was written", unreadable results), else 0. An error must never end in 0.
int ExitCodeAfterResults(const ProgramOutcome& outcome, bool gpuscope_error);

// When signal N killed the program, ends gpuscope by signal N too, after everything has
// been printed: callers (a shell, `timeout`, a batch system, Python's subprocess) then see
// what they would have seen without gpuscope (a returncode of -15, not 143). Restores the
// signal's default action, unblocks it and raises it, with the core-file limit set to 0
// first (gpuscope's own core is of no use). Returns only when the signal did not end the
// process (or the program was not killed by a signal).
void EndLikeTheProgram(const ProgramOutcome& outcome);

// "Program exited with code 3", "Program terminated by signal 9 (SIGKILL)", or "" for a
// clean exit (nvprof says nothing then).
std::string DescribeOutcome(const ProgramOutcome& outcome);

// "SIGKILL"; "signal 40" when the signal has no name (real-time signals).
std::string SignalName(int signal);

}  // namespace gpuscope::cli
