#include "command_runner.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>

extern char** environ;

namespace gpuscope::gpu_test {
namespace {

constexpr size_t kErrTailBytes = 4000;

// Everything the child needs is prepared before fork(): after it, only async-signal-safe
// calls are allowed in the child.
std::vector<std::string> MergedEnvironment(const Environment& extra) {
  std::map<std::string, std::string> merged;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    std::string text(*entry);
    size_t equals = text.find('=');
    if (equals != std::string::npos) merged[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : extra) merged[name] = value;
  std::vector<std::string> result;
  for (const auto& [name, value] : merged) result.push_back(name + "=" + value);
  return result;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> pointers;
  for (auto& s : strings) pointers.push_back(s.data());
  pointers.push_back(nullptr);
  return pointers;
}

std::string JoinForDisplay(const std::vector<std::string>& argv, const Environment& extra) {
  std::string line;
  for (const auto& [name, value] : extra) line += name + "=" + value + " ";
  for (const auto& arg : argv) {
    if (&arg != &argv.front()) line += ' ';
    line += arg;
  }
  return line;
}

// Reads both pipes until both are closed or the deadline passes.
bool DrainUntilClosed(int out_fd, int err_fd, std::string& out, std::string& err,
                      std::chrono::steady_clock::time_point deadline) {
  struct pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  std::string* sinks[2] = {&out, &err};
  int open_count = 2;
  char buffer[65536];
  while (open_count > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) return false;
    int ready = poll(fds, 2, static_cast<int>(left));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return false;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        fds[i].fd = -1;  // poll ignores negative descriptors
        --open_count;
      }
    }
  }
  return true;
}

}  // namespace

std::string CommandResult::Ending() const {
  if (!started) return "not started";
  if (timed_out) return "timed out";
  if (signaled) return "signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit code " + std::to_string(exit_code);
}

std::string CommandResult::Describe() const {
  std::string tail =
      err.size() > kErrTailBytes ? "..." + err.substr(err.size() - kErrTailBytes) : err;
  return "command: " + command_line + "\nended with: " + Ending() + "\nstderr:\n" + tail;
}

CommandResult RunCommand(const std::vector<std::string>& argv, const Environment& extra_environment,
                         int timeout_seconds) {
  CommandResult result;
  result.command_line = JoinForDisplay(argv, extra_environment);
  if (argv.empty()) return result;

  std::vector<std::string> args = argv;
  std::vector<std::string> environment = MergedEnvironment(extra_environment);
  std::vector<char*> arg_pointers = CStrings(args);
  std::vector<char*> env_pointers = CStrings(environment);

  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) return result;
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    close(out_pipe[0]);
    close(out_pipe[1]);
    return result;
  }
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) close(fd);
    return result;
  }
  if (pid == 0) {
    // Own process group, so that a timeout can kill the program gpuscope started as well.
    setpgid(0, 0);
    int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    environ = env_pointers.data();  // execvp searches PATH and passes environ on
    execvp(arg_pointers[0], arg_pointers.data());
    const char message[] = "command_runner: exec failed\n";
    ssize_t ignored = write(STDERR_FILENO, message, sizeof(message) - 1);
    (void)ignored;
    _exit(127);
  }
  result.started = true;
  close(out_pipe[1]);
  close(err_pipe[1]);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  if (!DrainUntilClosed(out_pipe[0], err_pipe[0], result.out, result.err, deadline)) {
    result.timed_out = true;
    kill(-pid, SIGKILL);
  }
  close(out_pipe[0]);
  close(err_pipe[0]);

  int status = 0;
  struct rusage usage {};
  while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  result.max_rss_kib = usage.ru_maxrss;
  if (WIFSIGNALED(status)) {
    result.signaled = true;
    result.signal = WTERMSIG(status);
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace gpuscope::gpu_test
