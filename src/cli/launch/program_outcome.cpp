#include "cli/launch/program_outcome.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstring>
#include <iostream>

#include "cli/output/exit_codes.h"

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

void EndLikeTheProgram(const ProgramOutcome& outcome) {
  if (outcome.status_unknown || !outcome.killed_by_signal) return;
  // Nothing runs after the signal: no destructors, no stdio flushing at exit.
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  rlimit core{};
  if (getrlimit(RLIMIT_CORE, &core) == 0) {
    core.rlim_cur = 0;
    setrlimit(RLIMIT_CORE, &core);
  }
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(outcome.signal, &default_action, nullptr);  // refused for SIGKILL: no matter
  sigset_t only_this;
  sigemptyset(&only_this);
  sigaddset(&only_this, outcome.signal);
  sigprocmask(SIG_UNBLOCK, &only_this, nullptr);
  raise(outcome.signal);
}

int ExitCodeAfterResults(const ProgramOutcome& outcome, bool gpuscope_error) {
  int program = ExitCodeFor(outcome);
  if (program != kExitOk) return program;
  return gpuscope_error ? kExitGpuscopeFailure : kExitOk;
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
