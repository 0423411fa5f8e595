// maxrss <command> [args...]: runs the command and prints the peak resident set size of its
// process tree on stderr ("maxrss_kb <n>", "wall_ms <n>"), then exits with the command's
// exit code (128+N when signal N killed it). wait4's rusage covers the child and every
// descendant it waited for, and ru_maxrss is the largest of their peaks (not their sum):
// for `gpuscope run -- app` that is the traced app or the launcher, whichever peaked higher.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: maxrss <command> [args...]\n");
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  pid_t child = fork();
  if (child < 0) {
    std::fprintf(stderr, "maxrss: fork failed: %s\n", std::strerror(errno));
    return 1;
  }
  if (child == 0) {
    execvp(argv[1], argv + 1);
    std::fprintf(stderr, "maxrss: cannot run '%s': %s\n", argv[1], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  struct rusage usage = {};
  while (wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "maxrss: wait4 failed: %s\n", std::strerror(errno));
      return 1;
    }
  }
  const auto wall_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - start)
                           .count();
  std::fprintf(stderr, "maxrss_kb %ld\nwall_ms %lld\n", usage.ru_maxrss,
               static_cast<long long>(wall_ms));
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
