// A small shared library for exit_hooks_test: Python loads it with ctypes and registers,
// through the production RegisterExitHook, a hook that appends one line to a marker file.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <string>

#include "inject/exit_hooks.h"

namespace {

std::string g_marker_path;

void WriteMarker() {
  const int fd = open(g_marker_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0) return;
  const char line[] = "exit hook ran\n";
  ssize_t ignored = write(fd, line, sizeof(line) - 1);
  (void)ignored;
  close(fd);
}

}  // namespace

// 0 when registered.
extern "C" __attribute__((visibility("default"))) int gpuscope_probe_register(
    const char* marker_path) {
  g_marker_path = marker_path;
  return gpuscope::inject::RegisterExitHook(WriteMarker).ok() ? 0 : 1;
}
