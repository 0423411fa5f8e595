#include "inject/signal_flush.h"

#include <poll.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "inject/flusher.h"

namespace gpuscope::inject {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGABRT};
constexpr int kSignalCount = sizeof(kSignals) / sizeof(kSignals[0]);

// Plain globals: a signal handler can read nothing else safely. They are written before
// the handlers are installed and never change afterwards (except g_active).
int g_wake_fd = -1;
int g_done_fd = -1;
int g_wait_ms = 0;
struct sigaction g_previous[kSignalCount];
std::atomic<bool> g_active{false};
bool g_installed = false;  // installing twice would chain our handler to itself
static_assert(std::atomic<bool>::is_always_lock_free, "signal handlers need lock-free atomics");

int IndexOf(int signal_number) {
  for (int i = 0; i < kSignalCount; ++i) {
    if (kSignals[i] == signal_number) return i;
  }
  return 0;  // not reached: only kSignals are installed
}

long MonotonicMs() {
  timespec now{};
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec * 1000L + now.tv_nsec / 1'000'000L;
}

// sa_handler and sa_sigaction share storage, and the kernel keeps SA_SIGINFO in the flags
// of a SIG_DFL/SIG_IGN disposition set with it: the handler value alone says what it is.
bool PreviousIsDefault(const struct sigaction& previous) { return previous.sa_handler == SIG_DFL; }

bool PreviousIsIgnore(const struct sigaction& previous) { return previous.sa_handler == SIG_IGN; }

// Set once the program's SA_RESETHAND handler ran: from then on the signal's disposition is
// SIG_DFL, as the kernel would have made it (our handler stays, so the next one still
// flushes before it kills).
std::atomic<bool> g_reset_to_default[kSignalCount];
static_assert(std::atomic<bool>::is_always_lock_free);

bool ChainsToDefault(int index) {
  return PreviousIsDefault(g_previous[index]) ||
         g_reset_to_default[index].load(std::memory_order_acquire);
}

void AskFlusherAndWait(bool process_dies) {
  // Forget answers to earlier requests that came too late.
  char stale[16];
  while (read(g_done_fd, stale, sizeof(stale)) > 0) {
  }
  const char request =
      process_dies ? Flusher::kSignalProcessDies : Flusher::kSignalProcessContinues;
  if (write(g_wake_fd, &request, 1) != 1) return;
  const long deadline = MonotonicMs() + g_wait_ms;
  for (;;) {
    const long left = deadline - MonotonicMs();
    if (left <= 0) return;
    pollfd done{g_done_fd, POLLIN, 0};
    int ready = poll(&done, 1, static_cast<int>(left));
    if (ready > 0) {
      char answer;
      ssize_t ignored = read(g_done_fd, &answer, 1);
      (void)ignored;
      return;
    }
    if (ready < 0 && errno != EINTR) return;
  }
}

void OnSignal(int signal_number, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const int index = IndexOf(signal_number);
  const struct sigaction& previous = g_previous[index];
  const bool dies = ChainsToDefault(index);
  if (g_active.load(std::memory_order_acquire)) {
    AskFlusherAndWait(/*process_dies=*/dies);
  }
  if (dies) {
    // Our handler goes, the default comes back, and the re-raised signal (blocked while we
    // run) is delivered when we return: the process dies of it, as it would have.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal_number, &default_action, nullptr);
    raise(signal_number);
  } else if (!PreviousIsIgnore(previous)) {
    // SA_RESETHAND: the program asked for this handler to run once.
    if ((previous.sa_flags & SA_RESETHAND) != 0) {
      g_reset_to_default[index].store(true, std::memory_order_release);
    }
    if ((previous.sa_flags & SA_SIGINFO) != 0) {
      if (previous.sa_sigaction != nullptr) previous.sa_sigaction(signal_number, info, context);
    } else if (previous.sa_handler != nullptr) {
      previous.sa_handler(signal_number);
    }
  }
  errno = saved_errno;
}

}  // namespace

Status InstallFlushOnSignals(int wake_fd, int done_fd, std::chrono::milliseconds wait) {
  g_wake_fd = wake_fd;
  g_done_fd = done_fd;
  g_wait_ms = static_cast<int>(wait.count());
  if (g_installed) {
    g_active.store(true, std::memory_order_release);
    return Status();
  }
  for (int signal_number : kSignals) {
    struct sigaction& previous = g_previous[IndexOf(signal_number)];
    if (sigaction(signal_number, nullptr, &previous) != 0) {
      return Status::Error(std::string("cannot read the handler of signal ") +
                           std::to_string(signal_number) + ": " + std::strerror(errno));
    }
    // An ignored signal stays ignored, by the kernel: a handler of ours would end the
    // ignore that exec'd children inherit, interrupt the program's sleeps with EINTR and
    // stall it for the flush at every such signal. Nothing to flush for: it kills nobody.
    if (PreviousIsIgnore(previous)) continue;
    struct sigaction ours {};
    ours.sa_sigaction = OnSignal;
    // Keep the program's choices: whether interrupted system calls restart (Python wants
    // EINTR to run its handlers promptly), which stack, which signals are blocked while its
    // handler runs. For SIG_DFL, restarting keeps the program undisturbed.
    const bool program_handler = !PreviousIsDefault(previous);
    ours.sa_flags =
        SA_SIGINFO | (program_handler ? previous.sa_flags & (SA_RESTART | SA_ONSTACK) : SA_RESTART);
    ours.sa_mask = previous.sa_mask;
    if (sigaction(signal_number, &ours, nullptr) != 0) {
      return Status::Error(std::string("cannot install the handler of signal ") +
                           std::to_string(signal_number) + ": " + std::strerror(errno));
    }
  }
  g_installed = true;
  g_active.store(true, std::memory_order_release);
  return Status();
}

void StopFlushingOnSignals() { g_active.store(false, std::memory_order_release); }

}  // namespace gpuscope::inject
