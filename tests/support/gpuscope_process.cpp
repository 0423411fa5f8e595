#include "gpuscope_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>

#ifndef GPUSCOPE_BINARY_DIR
#error "GPUSCOPE_BINARY_DIR must be defined by tests/CMakeLists.txt"
#endif

namespace gpuscope::cli::testing {

std::string GpuscopeBinary() { return std::string(GPUSCOPE_BINARY_DIR) + "/bin/gpuscope"; }

GpuscopeProcess::GpuscopeProcess(const std::vector<std::string>& args,
                                 const std::map<std::string, std::string>& env,
                                 const std::string& working_directory,
                                 const std::string& controlling_terminal) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0 || pipe2(err, O_CLOEXEC) != 0) {
    throw std::runtime_error("pipe failed");
  }
  std::string binary = GpuscopeBinary();
  std::vector<std::string> argv_strings = {binary};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  pid_ = fork();
  if (pid_ == 0) {
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    dup2(err[1], STDERR_FILENO);
    for (const auto& [name, value] : env) {
      if (value.empty()) {
        unsetenv(name.c_str());
      } else {
        setenv(name.c_str(), value.c_str(), 1);
      }
    }
    if (!working_directory.empty() && chdir(working_directory.c_str()) != 0) _exit(250);
    if (!controlling_terminal.empty()) {
      // A session leader without a terminal acquires the first one it opens, and its
      // process group becomes the terminal's foreground group.
      if (setsid() < 0 || open(controlling_terminal.c_str(), O_RDWR) < 0) _exit(252);
    }
    execv(binary.c_str(), argv.data());
    _exit(251);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  stdin_fd_ = in[1];
  stdout_fd_ = out[0];
  stderr_fd_ = err[0];
}

GpuscopeProcess::~GpuscopeProcess() {
  for (int fd : {stdin_fd_, stdout_fd_, stderr_fd_}) {
    if (fd >= 0) close(fd);
  }
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

Finished GpuscopeProcess::Finish(const std::string& input) {
  Finished result;
  // gpuscope passes stdin to the program; a program that never reads it must not block us.
  signal(SIGPIPE, SIG_IGN);
  if (!input.empty()) {
    ssize_t ignored = write(stdin_fd_, input.data(), input.size());
    (void)ignored;
  }
  close(stdin_fd_);
  stdin_fd_ = -1;

  // Both pipes are drained together so that neither fills up and blocks the child.
  while (stdout_fd_ >= 0 || stderr_fd_ >= 0) {
    pollfd fds[2] = {{stdout_fd_, POLLIN, 0}, {stderr_fd_, POLLIN, 0}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buffer[4096];
      ssize_t got = read(fds[i].fd, buffer, sizeof(buffer));
      if (got > 0) {
        (i == 0 ? result.out : result.err).append(buffer, static_cast<std::size_t>(got));
      } else {
        close(fds[i].fd);
        (i == 0 ? stdout_fd_ : stderr_fd_) = -1;
      }
    }
  }
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  result.exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  result.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return result;
}

Finished RunGpuscope(const std::vector<std::string>& args,
                     const std::map<std::string, std::string>& env, const std::string& input,
                     const std::string& working_directory) {
  GpuscopeProcess process(args, env, working_directory);
  return process.Finish(input);
}

}  // namespace gpuscope::cli::testing
