// SIGINT/SIGTERM: the handler wakes the real flusher thread, waits for its answer, then
// does what the program's previous disposition says. Each case runs in its own process
// (death tests), because signal dispositions are process-wide.
#include "inject/signal_flush.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "inject/flusher.h"

namespace gpuscope::inject {
namespace {

// The flusher's answer is printed; the test's regex checks it happened before the chain.
Flusher::Actions PrintingActions() {
  Flusher::Actions actions;
  actions.periodic = [] {};
  actions.on_signal = [](bool dies) {
    std::fprintf(stderr, "flushed dies=%d\n", dies ? 1 : 0);
    std::fflush(stderr);
  };
  actions.final_flush = [] {};
  return actions;
}

void InstallWithFlusher(Flusher& flusher, std::chrono::milliseconds wait) {
  if (!flusher.Start().ok()) std::_Exit(90);
  if (!InstallFlushOnSignals(flusher.wake_fd(), flusher.done_fd(), wait).ok()) std::_Exit(91);
}

void ProgramHandler(int signal_number) {
  const char* text = signal_number == SIGTERM ? "program handler SIGTERM\n" : "program handler\n";
  ssize_t ignored = write(STDERR_FILENO, text, std::string(text).size());
  (void)ignored;
  std::_Exit(42);
}

void ProgramSiginfoHandler(int, siginfo_t* info, void*) {
  std::fprintf(stderr, "siginfo handler signo=%d\n", info->si_signo);
  std::fflush(stderr);
  std::_Exit(43);
}

class SignalFlushDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(SignalFlushDeathTest, FlushesThenChainsToTheProgramsHandler) {
  EXPECT_EXIT(
      {
        alarm(10);  // a hang fails the test instead of blocking it
        signal(SIGTERM, ProgramHandler);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGTERM);
      },
      ::testing::ExitedWithCode(42), "flushed dies=0\n(.|\n)*program handler SIGTERM");
}

TEST_F(SignalFlushDeathTest, PassesSiginfoToASiginfoHandler) {
  EXPECT_EXIT(
      {
        alarm(10);
        struct sigaction action {};
        action.sa_sigaction = ProgramSiginfoHandler;
        action.sa_flags = SA_SIGINFO;
        sigaction(SIGINT, &action, nullptr);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGINT);
      },
      ::testing::ExitedWithCode(43), "flushed dies=0\n(.|\n)*siginfo handler signo=2");
}

TEST_F(SignalFlushDeathTest, DefaultDispositionStillKillsAfterTheFlush) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGTERM, SIG_DFL);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGTERM);
        std::fprintf(stderr, "survived\n");
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "flushed dies=1");
}

// abort() (a failed check after a CUDA error, say): the flush runs, then the process dies of
// SIGABRT as it would have.
TEST_F(SignalFlushDeathTest, AbortFlushesThenDies) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGABRT, SIG_DFL);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        std::abort();
      },
      ::testing::KilledBySignal(SIGABRT), "flushed dies=1");
}

void ProgramAbortHandler(int) {
  const char text[] = "program abort handler\n";
  ssize_t ignored = write(STDERR_FILENO, text, sizeof(text) - 1);
  (void)ignored;
}

// A program's own SIGABRT handler that returns: the flush comes first and the process goes on
// (abort() then restores the default and dies of SIGABRT, without us).
TEST_F(SignalFlushDeathTest, AbortWithAProgramHandlerFlushesThenChains) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGABRT, ProgramAbortHandler);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        std::abort();
      },
      ::testing::KilledBySignal(SIGABRT), "flushed dies=0\nprogram abort handler\n$");
}

// What an exec'd child of this process inherits: whether `signal_number` is ignored in the
// SigIgn mask of /proc/self/status, as `cat` itself reads it.
bool ExecdChildSeesIgnored(int signal_number) {
  int out[2];
  if (pipe(out) != 0) return false;
  const pid_t child = fork();
  if (child == 0) {
    dup2(out[1], STDOUT_FILENO);
    execl("/bin/cat", "cat", "/proc/self/status", static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  close(out[1]);
  std::string status;
  char chunk[4096];
  ssize_t n;
  while ((n = read(out[0], chunk, sizeof(chunk))) > 0) status.append(chunk, n);
  close(out[0]);
  int exit_status = 0;
  waitpid(child, &exit_status, 0);
  const std::size_t line = status.find("\nSigIgn:");
  if (line == std::string::npos) return false;
  const unsigned long long mask = std::strtoull(status.c_str() + line + 9, nullptr, 16);
  return (mask >> (signal_number - 1)) & 1;
}

TEST_F(SignalFlushDeathTest, IgnoredSignalsStayIgnored) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGINT, SIG_IGN);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        struct sigaction now {};
        sigaction(SIGINT, nullptr, &now);
        if (now.sa_handler != SIG_IGN) {
          std::fprintf(stderr, "SIGINT is no longer SIG_IGN\n");
          std::_Exit(1);
        }
        if (!ExecdChildSeesIgnored(SIGINT)) {
          std::fprintf(stderr, "an exec'd child does not inherit the ignore\n");
          std::_Exit(2);
        }
        raise(SIGINT);
        std::fprintf(stderr, "continued\n");
        std::fflush(stderr);
        std::_Exit(7);
      },
      ::testing::ExitedWithCode(7), "^continued\n$");
}

// The kernel keeps SA_SIGINFO in the flags of a SIG_DFL set with it; the handler pointer is
// then null and must not be called.
TEST_F(SignalFlushDeathTest, DefaultSetWithSiginfoFlagStillKillsAfterTheFlush) {
  EXPECT_EXIT(
      {
        alarm(10);
        struct sigaction action {};
        action.sa_handler = SIG_DFL;
        action.sa_flags = SA_SIGINFO;
        sigaction(SIGTERM, &action, nullptr);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGTERM);
        std::fprintf(stderr, "survived\n");
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "flushed dies=1");
}

TEST_F(SignalFlushDeathTest, IgnoreSetWithSiginfoFlagStaysIgnored) {
  EXPECT_EXIT(
      {
        alarm(10);
        struct sigaction action {};
        action.sa_handler = SIG_IGN;
        action.sa_flags = SA_SIGINFO;
        sigaction(SIGTERM, &action, nullptr);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGTERM);
        std::fprintf(stderr, "continued\n");
        std::fflush(stderr);
        std::_Exit(7);
      },
      ::testing::ExitedWithCode(7), "^continued\n$");
}

void OneShotHandler(int) {
  const char text[] = "one-shot handler\n";
  ssize_t ignored = write(STDERR_FILENO, text, sizeof(text) - 1);
  (void)ignored;
}

// SA_RESETHAND: the program's handler runs for the first signal only; the second one is
// handled by default, which kills the process (after our flush).
TEST_F(SignalFlushDeathTest, AResetHandHandlerRunsOnceThenTheDefaultKills) {
  EXPECT_EXIT(
      {
        alarm(10);
        struct sigaction action {};
        action.sa_handler = OneShotHandler;
        action.sa_flags = SA_RESETHAND;
        sigaction(SIGTERM, &action, nullptr);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        raise(SIGTERM);
        raise(SIGTERM);
        std::fprintf(stderr, "survived\n");
        std::_Exit(0);
      },
      ::testing::KilledBySignal(SIGTERM), "flushed dies=0\none-shot handler\nflushed dies=1\n$");
}

TEST_F(SignalFlushDeathTest, TheWaitForAnUnresponsiveFlusherIsBounded) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGTERM, ProgramHandler);
        // Pipes nobody answers: the handler must give up after its wait and chain.
        int wake[2];
        int done[2];
        if (pipe(wake) != 0 || pipe(done) != 0) std::_Exit(92);
        fcntl(done[0], F_SETFL, O_NONBLOCK);
        if (!InstallFlushOnSignals(wake[1], done[0], std::chrono::milliseconds(300)).ok()) {
          std::_Exit(91);
        }
        raise(SIGTERM);
      },
      ::testing::ExitedWithCode(42), "program handler SIGTERM");
}

TEST_F(SignalFlushDeathTest, AfterStopTheHandlerOnlyChains) {
  EXPECT_EXIT(
      {
        alarm(10);
        signal(SIGTERM, ProgramHandler);
        Flusher flusher(std::chrono::hours(1), PrintingActions());
        InstallWithFlusher(flusher, std::chrono::milliseconds(3000));
        StopFlushingOnSignals();
        raise(SIGTERM);
      },
      ::testing::ExitedWithCode(42), "^program handler SIGTERM\n$");
}

}  // namespace
}  // namespace gpuscope::inject
