#include "store/testing/small_filesystem.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>

#include "store/testing/scratch_dir.h"

namespace gpuscope::store::testing {

namespace {

bool WriteAll(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool WriteProcFile(const char* path, const std::string& text) {
  int fd = open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  bool ok = WriteAll(fd, text);
  close(fd);
  return ok;
}

// A private mount namespace: as root a plain CLONE_NEWNS; otherwise a user namespace in
// which this user is root, as `unshare --mount --map-root-user` does.
std::string EnterPrivateMountNamespace() {
  if (unshare(CLONE_NEWNS) != 0) {
    const uid_t uid = getuid();
    const gid_t gid = getgid();
    if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
      return std::string("cannot make a private mount namespace: ") + std::strerror(errno);
    }
    if (!WriteProcFile("/proc/self/setgroups", "deny") ||
        !WriteProcFile("/proc/self/uid_map", "0 " + std::to_string(uid) + " 1") ||
        !WriteProcFile("/proc/self/gid_map", "0 " + std::to_string(gid) + " 1")) {
      return std::string("cannot map this user into a user namespace: ") + std::strerror(errno);
    }
  }
  // Mounts made here must never propagate back to the host's namespace.
  if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
    return std::string("cannot make the mounts private: ") + std::strerror(errno);
  }
  return "";
}

[[noreturn]] void RunChild(std::uint64_t bytes, const std::string& directory,
                           const std::function<std::string(const std::string&)>& body,
                           int result_fd) {
  std::string failed = EnterPrivateMountNamespace();
  if (failed.empty()) {
    const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
    if (mount("tmpfs", directory.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
      failed = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
    }
  }
  if (!failed.empty()) {
    WriteAll(result_fd, "S" + failed);
    _exit(0);
  }
  std::string result = body(directory);
  _exit(WriteAll(result_fd, "R" + result) ? 0 : 3);
}

}  // namespace

SmallFilesystemRun RunInSmallFilesystem(std::uint64_t bytes,
                                        const std::function<std::string(const std::string&)>& body,
                                        int timeout_s) {
  SmallFilesystemRun run;
  const char* tmp = getenv("TMPDIR");
  std::string pattern = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") +
                        "/gpuscope-small-fs-XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    run.why_not = std::string("cannot make a mount point: ") + std::strerror(errno);
    return run;
  }
  const std::string directory = pattern;
  const std::string stderr_path = directory + ".stderr";
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    run.why_not = std::string("pipe: ") + std::strerror(errno);
    rmdir(directory.c_str());
    return run;
  }
  fflush(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    close(pipe_fds[0]);
    int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err >= 0) dup2(err, STDERR_FILENO);
    RunChild(bytes, directory, body, pipe_fds[1]);
  }
  close(pipe_fds[1]);
  if (child < 0) {
    run.why_not = std::string("fork: ") + std::strerror(errno);
    close(pipe_fds[0]);
    rmdir(directory.c_str());
    return run;
  }
  std::string message;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  bool timed_out = false;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd readable{pipe_fds[0], POLLIN, 0};
    if (poll(&readable, 1, static_cast<int>(left.count())) <= 0) continue;
    char buffer[4096];
    ssize_t got = read(pipe_fds[0], buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    message.append(buffer, static_cast<std::size_t>(got));
  }
  close(pipe_fds[0]);
  if (timed_out) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  run.stderr_text = ReadWholeFile(stderr_path);
  unlink(stderr_path.c_str());
  rmdir(directory.c_str());
  if (WIFSIGNALED(status)) run.died_of_signal = WTERMSIG(status);
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (!message.empty() && message[0] == 'S') {
    run.why_not = message.substr(1);
    return run;
  }
  run.ran = true;
  if (!message.empty()) run.result = message.substr(1);
  return run;
}

}  // namespace gpuscope::store::testing
