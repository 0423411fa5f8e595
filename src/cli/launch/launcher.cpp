#include "cli/launch/launcher.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "cli/output/exit_codes.h"
#include "contract/environment_variables.h"

namespace gpuscope::cli {
namespace {

// Signals forwarded to the program; SIGINT only when another process sent it (launcher.h).
constexpr int kForwardedSignals[] = {SIGTERM, SIGHUP, SIGQUIT};

// The program's pid, for the forwarding handlers; 0 when no program is running.
volatile sig_atomic_t g_program_pid = 0;

struct sigaction g_saved_actions[NSIG];

void ForwardSignal(int signal) {
  pid_t pid = g_program_pid;
  if (pid > 0) kill(pid, signal);
}

// A terminal's Ctrl-C comes from the kernel (si_code SI_KERNEL) to the whole foreground
// process group: the program has it already, and forwarding would deliver it twice.
// `kill -INT <gpuscope>` or `timeout -s INT` come from a process (si_code SI_USER, or
// another code <= 0 for sigqueue and tgkill) and reach gpuscope alone: forward those.
void ForwardSigintFromAProcess(int signal, siginfo_t* info, void*) {
  if (info != nullptr && info->si_code <= 0) ForwardSignal(signal);
}

sigset_t HandledSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  for (int signal : kForwardedSignals) sigaddset(&set, signal);
  return set;
}

// A launcher started with SIGCHLD ignored would have its child reaped by the kernel and
// could not learn the exit code; the program itself gets the inherited disposition back.
void UseDefaultChildSignal() {
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  sigaction(SIGCHLD, &default_action, &g_saved_actions[SIGCHLD]);
}

void InstallForwarding(pid_t pid) {
  g_program_pid = pid;
  struct sigaction forward {};
  forward.sa_handler = ForwardSignal;
  forward.sa_flags = SA_RESTART;
  sigemptyset(&forward.sa_mask);
  for (int signal : kForwardedSignals) sigaction(signal, &forward, &g_saved_actions[signal]);
  struct sigaction interrupt {};
  interrupt.sa_sigaction = ForwardSigintFromAProcess;
  interrupt.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&interrupt.sa_mask);
  sigaction(SIGINT, &interrupt, &g_saved_actions[SIGINT]);
}

void RemoveForwarding() {
  for (int signal : kForwardedSignals) sigaction(signal, &g_saved_actions[signal], nullptr);
  sigaction(SIGINT, &g_saved_actions[SIGINT], nullptr);
  sigaction(SIGCHLD, &g_saved_actions[SIGCHLD], nullptr);
  g_program_pid = 0;
}

// Writes `value` in decimal into `out` (room for 20 digits and a NUL), without allocating:
// this runs in the forked child.
void FormatPid(long value, char* out) {
  char digits[24];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value > 0);
  while (count > 0) *out++ = digits[--count];
  *out = '\0';
}

std::vector<char*> PointersTo(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (std::string& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

// The forked child. Only async-signal-safe calls from here on: the parent's memory is a
// copy, and allocating could deadlock on a lock held at fork time.
[[noreturn]] void ExecInChild(const char* path, char* const* argv, char* const* shell_argv,
                              char* const* envp, char* root_pid_digits, const sigset_t& old_mask,
                              int error_pipe) {
  FormatPid(static_cast<long>(getpid()), root_pid_digits);
  sigaction(SIGCHLD, &g_saved_actions[SIGCHLD], nullptr);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
  execve(path, argv, envp);
  if (errno == ENOEXEC) execve("/bin/sh", shell_argv, envp);
  int error = errno;
  ssize_t ignored = write(error_pipe, &error, sizeof(error));
  (void)ignored;
  _exit(kExitProgramNotFound);
}

}  // namespace

StartResult StartProgram(const LaunchRequest& request) {
  const std::string& name = request.argv.empty() ? request.executable : request.argv[0];
  // Everything the child needs is built before the fork.
  std::vector<std::string> argv = request.argv;
  if (argv.empty()) argv.push_back(request.executable);
  std::vector<std::string> shell_argv = {"/bin/sh", request.executable};
  shell_argv.insert(shell_argv.end(), argv.begin() + 1, argv.end());
  std::vector<std::string> environment = request.environment;
  std::string root_pid_prefix = std::string(contract::kRootPidVariable) + "=";
  environment.push_back(root_pid_prefix + std::string(24, '\0'));
  std::vector<char*> argv_pointers = PointersTo(argv);
  std::vector<char*> shell_pointers = PointersTo(shell_argv);
  std::vector<char*> env_pointers = PointersTo(environment);
  char* root_pid_digits = environment.back().data() + root_pid_prefix.size();

  int error_pipe[2];
  if (pipe2(error_pipe, O_CLOEXEC) != 0) {
    return {-1, kExitGpuscopeFailure, std::string("cannot create a pipe: ") + std::strerror(errno)};
  }
  // Signals stay blocked across the fork so that none is lost or acted on before the
  // parent forwards them and the child has its original mask back.
  sigset_t handled = HandledSignals();
  sigset_t old_mask;
  sigprocmask(SIG_BLOCK, &handled, &old_mask);
  UseDefaultChildSignal();

  pid_t pid = fork();
  if (pid == 0) {
    close(error_pipe[0]);
    ExecInChild(request.executable.c_str(), argv_pointers.data(), shell_pointers.data(),
                env_pointers.data(), root_pid_digits, old_mask, error_pipe[1]);
  }
  int fork_error = errno;
  close(error_pipe[1]);
  if (pid < 0) {
    sigaction(SIGCHLD, &g_saved_actions[SIGCHLD], nullptr);
    sigprocmask(SIG_SETMASK, &old_mask, nullptr);
    close(error_pipe[0]);
    return {-1, kExitGpuscopeFailure, "cannot start " + name + ": " + std::strerror(fork_error)};
  }
  InstallForwarding(pid);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);

  int exec_error = 0;
  ssize_t got;
  do {
    got = read(error_pipe[0], &exec_error, sizeof(exec_error));
  } while (got < 0 && errno == EINTR);
  close(error_pipe[0]);
  if (got == static_cast<ssize_t>(sizeof(exec_error))) {
    WaitForProgram(pid);  // reap the child that failed to exec
    return {-1, kExitProgramNotFound, name + ": " + std::strerror(exec_error)};
  }
  return {pid, 0, ""};
}

ProgramOutcome WaitForProgram(pid_t pid) {
  int status = 0;
  pid_t waited;
  do {
    waited = waitpid(pid, &status, 0);
  } while (waited < 0 && errno == EINTR);
  RemoveForwarding();
  if (waited < 0) return ProgramOutcome{.status_unknown = true};
  return OutcomeFromWaitStatus(status);
}

}  // namespace gpuscope::cli
