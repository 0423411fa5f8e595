#include "evaluate/cupti_child.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

namespace gpuscope::evaluate {
namespace {

std::mutex& CuptiForkLock() {
  static std::mutex lock;
  return lock;
}

void WriteAll(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    written += static_cast<std::size_t>(n);
  }
}

// Reads the child's answer until it closes the pipe or the deadline passes (false).
bool ReadAll(int fd, std::chrono::steady_clock::time_point deadline, std::string& bytes) {
  char buffer[65536];
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd ready{fd, POLLIN, 0};
    int polled = ::poll(&ready, 1, static_cast<int>(left.count()));
    if (polled < 0 && errno == EINTR) continue;
    if (polled <= 0) return false;
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return true;
    bytes.append(buffer, static_cast<std::size_t>(n));
  }
}

}  // namespace

StatusOr<ChildAnswer> RunInCuptiChild(const std::function<std::string()>& work,
                                      std::chrono::milliseconds limit, const std::string& what) {
  std::lock_guard<std::mutex> one_at_a_time(CuptiForkLock());
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::Error(what + ": pipe: " + std::strerror(errno));
  }
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Error(what + ": fork: " + std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    WriteAll(fds[1], work());
    ::_exit(0);  // no exit handlers or destructors: they belong to the parent
  }
  ::close(fds[1]);
  ChildAnswer answer;
  const bool finished =
      ReadAll(fds[0], std::chrono::steady_clock::now() + limit, answer.bytes);
  ::close(fds[0]);
  if (!finished) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) {
    answer.ending = ChildAnswer::Ending::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    answer.ending = ChildAnswer::Ending::kCrashed;
    answer.signal = WTERMSIG(status);
  }
  return answer;
}

}  // namespace gpuscope::evaluate
