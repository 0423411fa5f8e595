#include "cli/output/unfinished_outputs.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace gpuscope::cli {
namespace {

// SIGXFSZ: a file-size limit ends a command in the middle of its output.
constexpr int kEndingSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};

// Never destroyed: a signal may arrive while static destructors run.
std::vector<std::string>& Unfinished() {
  static auto* paths = new std::vector<std::string>();
  return *paths;
}

void RemoveUnfinishedAndEnd(int signal_number) {
  // unlink is async-signal-safe; the list is only changed with these signals blocked.
  for (const std::string& path : Unfinished()) unlink(path.c_str());
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(signal_number, &default_action, nullptr);
  raise(signal_number);  // delivered when this handler returns: gpuscope ends by the signal
}

void InstallHandlersOnce() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int signal_number : kEndingSignals) {
    struct sigaction current {};
    if (sigaction(signal_number, nullptr, &current) != 0) continue;
    if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
    struct sigaction cleanup {};
    cleanup.sa_handler = RemoveUnfinishedAndEnd;
    sigemptyset(&cleanup.sa_mask);
    for (int other : kEndingSignals) sigaddset(&cleanup.sa_mask, other);
    sigaction(signal_number, &cleanup, nullptr);
  }
}

// Changes the list with the handled signals blocked, so the handler never sees it halfway.
template <typename Change>
void WithSignalsBlocked(Change change) {
  sigset_t blocked, previous;
  sigemptyset(&blocked);
  for (int signal_number : kEndingSignals) sigaddset(&blocked, signal_number);
  pthread_sigmask(SIG_BLOCK, &blocked, &previous);
  change(Unfinished());
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

}  // namespace

void RegisterUnfinishedOutput(const std::string& temporary_path) {
  InstallHandlersOnce();
  WithSignalsBlocked([&](std::vector<std::string>& paths) { paths.push_back(temporary_path); });
}

void ForgetUnfinishedOutput(const std::string& temporary_path) {
  WithSignalsBlocked([&](std::vector<std::string>& paths) {
    paths.erase(std::remove(paths.begin(), paths.end(), temporary_path), paths.end());
  });
}

}  // namespace gpuscope::cli
