#include "disassembly/nvdisasm_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gpuscope::disassembly {
namespace {

std::string Errno(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// The cubin in a file only this user can read, removed when this goes out of scope.
class TemporaryCubin {
 public:
  Status Write(std::span<const std::uint8_t> cubin) {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/gpuscope-cubin-XXXXXX";
    int fd = ::mkstemp(path_.data());  // 0600
    if (fd < 0) {
      path_.clear();
      return Status::Error(Errno("cannot create a temporary file for nvdisasm"));
    }
    std::size_t written = 0;
    while (written < cubin.size()) {
      ssize_t n = ::write(fd, cubin.data() + written, cubin.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        Status error = Status::Error(Errno("cannot write the cubin for nvdisasm"));
        ::close(fd);
        return error;
      }
      written += static_cast<std::size_t>(n);
    }
    ::close(fd);
    return Status();
  }
  const std::string& path() const { return path_; }
  ~TemporaryCubin() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }

 private:
  std::string path_;
};

void CloseIfOpen(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  return line.size() > 300 ? line.substr(0, 300) + "..." : line;
}

}  // namespace

StatusOr<std::string> RunNvdisasm(const std::string& nvdisasm, std::span<const std::uint8_t> cubin,
                                  const NvdisasmLimits& limits) {
  TemporaryCubin file;
  GPUSCOPE_RETURN_IF_ERROR(file.Write(cubin));
  int out[2], err[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return Status::Error(Errno("cannot run nvdisasm: pipe"));
  if (::pipe2(err, O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return Status::Error(Errno("cannot run nvdisasm: pipe"));
  }
  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::string program = nvdisasm, flag = "-c", input = file.path();
  char* argv[] = {program.data(), flag.data(), input.data(), nullptr};
  pid_t child = ::fork();
  if (child < 0) {
    for (int fd : {out[0], out[1], err[0], err[1]}) ::close(fd);
    return Status::Error(Errno("cannot run nvdisasm: fork"));
  }
  if (child == 0) {
    int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    ::dup2(out[1], STDOUT_FILENO);
    ::dup2(err[1], STDERR_FILENO);
    ::execv(argv[0], argv);
    ::_exit(127);
  }
  ::close(out[1]);
  ::close(err[1]);
  int fds[2] = {out[0], err[0]};
  std::string streams[2];
  const auto deadline = std::chrono::steady_clock::now() + limits.time;
  std::string problem;
  char buffer[65536];
  while (fds[0] >= 0 || fds[1] >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      problem =
          "nvdisasm did not finish within " + std::to_string(limits.time.count() / 1000) + " s";
      break;
    }
    pollfd ready[2] = {{fds[0], POLLIN, 0}, {fds[1], POLLIN, 0}};
    int polled = ::poll(ready, 2, static_cast<int>(left.count()));
    if (polled < 0 && errno == EINTR) continue;
    if (polled < 0) {
      problem = Errno("cannot read nvdisasm's output: poll");
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i] < 0 || ready[i].revents == 0) continue;
      ssize_t n = ::read(fds[i], buffer, sizeof buffer);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        CloseIfOpen(fds[i]);
        continue;
      }
      // stderr is only quoted (its first line): a little of it is enough.
      const std::size_t bound = i == 0 ? limits.output_bytes : 4096;
      if (streams[i].size() < bound) streams[i].append(buffer, static_cast<std::size_t>(n));
      if (i == 0 && streams[0].size() > bound) {
        problem = "nvdisasm wrote more than " + std::to_string(bound >> 20) + " MiB";
        break;
      }
    }
    if (!problem.empty()) break;
  }
  CloseIfOpen(fds[0]);
  CloseIfOpen(fds[1]);
  if (!problem.empty()) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!problem.empty()) return Status::Error(problem);
  if (WIFSIGNALED(status)) {
    return Status::Error(nvdisasm + " was killed by signal " + std::to_string(WTERMSIG(status)));
  }
  if (WEXITSTATUS(status) == 127 && streams[0].empty()) {
    return Status::Error("cannot run " + nvdisasm);
  }
  if (WEXITSTATUS(status) != 0) {
    return Status::Error(nvdisasm + " failed (exit " + std::to_string(WEXITSTATUS(status)) + ")" +
                         (streams[1].empty() ? "" : ": " + FirstLine(streams[1])));
  }
  return std::move(streams[0]);
}

}  // namespace gpuscope::disassembly
