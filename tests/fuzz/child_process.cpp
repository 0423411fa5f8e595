#include "child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace gpuscope::fuzz {

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& stdout_path,
                           const std::string& stderr_path)
    : stdout_path_(stdout_path), stderr_path_(stderr_path) {
  int pipe_fds[2] = {-1, -1};
  if (stdout_path.empty() && ::pipe2(pipe_fds, O_CLOEXEC) != 0) return;
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ == 0) {
    ::setpgid(0, 0);
    int in = ::open("/dev/null", O_RDONLY);
    int out = stdout_path.empty() ? pipe_fds[1]
                                  : ::open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  if (stdout_path.empty()) {
    ::close(pipe_fds[1]);
    stdout_pipe_ = pipe_fds[0];
  }
  // Set here too, so that a kill of the group cannot race the child's own setpgid.
  if (pid_ > 0) ::setpgid(pid_, pid_);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(-pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (stdout_pipe_ >= 0) ::close(stdout_pipe_);
}

void ChildProcess::Signal(int signal) const {
  if (pid_ > 0) ::kill(pid_, signal);
}

Ended ChildProcess::Wait(Clock::time_point deadline) {
  Ended ended;
  if (pid_ <= 0) {
    ended.err = "fuzz driver: could not start the command";
    return ended;
  }
  int status = 0;
  for (;;) {
    pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) break;
    if (Clock::now() >= deadline) {
      ended.timed_out = true;
      ::kill(-pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  // Whatever it started in its group goes too (a timed-out command's children, for instance).
  ::kill(-pid_, SIGKILL);
  pid_ = -1;
  if (WIFEXITED(status)) ended.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status) && !ended.timed_out) ended.signal = WTERMSIG(status);
  if (!stdout_path_.empty()) ended.out = ReadWholeFile(stdout_path_);
  ended.err = ReadWholeFile(stderr_path_);
  return ended;
}

Ended RunBounded(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                 const std::string& scratch_dir) {
  ChildProcess child(argv, scratch_dir + "/stdout", scratch_dir + "/stderr");
  return child.Wait(ChildProcess::Clock::now() + timeout);
}

}  // namespace gpuscope::fuzz
