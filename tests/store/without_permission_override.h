// Permission tests that mean the same as root as for any other user.
//
// Root ignores file permissions through three capabilities (CAP_DAC_OVERRIDE,
// CAP_DAC_READ_SEARCH, CAP_FOWNER), so a test of "unreadable file" or "read-only
// directory" would pass vacuously or have to skip when the suite runs as root (CI
// containers do). RunWithoutPermissionOverride runs the test's body in a forked child that
// has given those capabilities up for good; the files root created are then subject to
// their owner permission bits, as for anyone. Header-only: the store and CLI tests share it.
#pragma once

#include <linux/capability.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>
#include <string>

namespace gpuscope::test_support {

// Drops the three capabilities from the effective, permitted and inheritable sets (the
// permitted set too: access(2) as uid 0 would otherwise raise effective to permitted).
inline bool DropPermissionOverride() {
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (syscall(SYS_capget, &header, data) != 0) return false;
  for (int capability : {CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER}) {
    const unsigned bit = 1u << capability;  // all three are below 32: data[0]
    data[0].effective &= ~bit;
    data[0].permitted &= ~bit;
    data[0].inheritable &= ~bit;
  }
  return syscall(SYS_capset, &header, data) == 0;
}

// Runs `body` in a child without the capabilities above and returns what it returned, or
// "child failed: ..." when the child could not drop them or died. `body` must not use
// gtest assertions (they would be lost with the child): it returns a value to compare.
inline std::string RunWithoutPermissionOverride(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return std::string("child failed: pipe: ") + std::strerror(errno);
  pid_t child = fork();
  if (child < 0) return std::string("child failed: fork: ") + std::strerror(errno);
  if (child == 0) {
    close(fds[0]);
    std::string result =
        DropPermissionOverride() ? body() : "child failed: cannot drop capabilities";
    const char* data = result.data();
    std::size_t left = result.size();
    while (left > 0) {
      ssize_t written = write(fds[1], data, left);
      if (written <= 0) _exit(1);
      data += written;
      left -= static_cast<std::size_t>(written);
    }
    _exit(0);  // no gtest teardown in the child
  }
  close(fds[1]);
  std::string result;
  char buffer[4096];
  ssize_t got;
  while ((got = read(fds[0], buffer, sizeof(buffer))) != 0) {
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    result.append(buffer, static_cast<std::size_t>(got));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return "child failed: wait status " + std::to_string(status);
  }
  return result;
}

}  // namespace gpuscope::test_support
