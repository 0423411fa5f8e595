#include "cli/program_outcome.h"

#include <sys/wait.h>

#include <cstring>

#include "cli/exit_codes.h"

namespace gpuscope::cli {

ProgramOutcome OutcomeFromWaitStatus(int status) {
  ProgramOutcome outcome;
  if (WIFSIGNALED(status)) {
    outcome.killed_by_signal = true;
    outcome.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    outcome.exit_code = WEXITSTATUS(status);
  }
  return outcome;
}

int ExitCodeFor(const ProgramOutcome& outcome) {
  if (outcome.status_unknown) return kExitGpuscopeFailure;
  return outcome.killed_by_signal ? kExitSignalBase + outcome.signal : outcome.exit_code;
}

std::string DescribeOutcome(const ProgramOutcome& outcome) {
  if (outcome.status_unknown) return "Program ended, but its exit status could not be read";
  if (outcome.killed_by_signal) {
    return "Program terminated by signal " + std::to_string(outcome.signal) + " (" +
           SignalName(outcome.signal) + ")";
  }
  if (outcome.exit_code != 0)
    return "Program exited with code " + std::to_string(outcome.exit_code);
  return "";
}

std::string SignalName(int signal) {
  const char* abbreviation = sigabbrev_np(signal);  // "KILL", nullptr for real-time signals
  if (abbreviation == nullptr) return "signal " + std::to_string(signal);
  return std::string("SIG") + abbreviation;
}

}  // namespace gpuscope::cli
