#include "inject/log.h"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <string>

namespace gpuscope::inject {
namespace {

std::atomic<bool> g_debug{false};

void WriteLine(std::string_view tag, std::string_view message) {
  std::string line = "==" + std::to_string(getpid()) + "== ";
  line.append(tag);
  line.append(message);
  line.push_back('\n');
  // One write per line: stderr is unbuffered at our level and lines stay whole.
  ssize_t ignored = write(STDERR_FILENO, line.data(), line.size());
  (void)ignored;
}

// Appends the decimal digits of `value` to `out` without allocating (signal handlers).
char* AppendUnsigned(char* out, const char* end, unsigned long value) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0 && n < 24);
  while (n > 0 && out < end) *out++ = digits[--n];
  return out;
}

char* AppendText(char* out, const char* end, const char* text) {
  while (*text != '\0' && out < end) *out++ = *text++;
  return out;
}

}  // namespace

void LogError(std::string_view message) { WriteLine("gpuscope: ", message); }

void LogBanner(std::string_view message) { WriteLine("", message); }

void LogDebug(std::string_view message) {
  if (g_debug.load(std::memory_order_relaxed)) WriteLine("gpuscope[debug]: ", message);
}

void SetDebugLogging(bool enabled) { g_debug.store(enabled, std::memory_order_relaxed); }

bool DebugLoggingEnabled() { return g_debug.load(std::memory_order_relaxed); }

void LogErrorFromSignalHandler(const char* message) {
  char line[256];
  char* const end = line + sizeof(line) - 1;
  char* out = AppendText(line, end, "==");
  out = AppendUnsigned(out, end, static_cast<unsigned long>(getpid()));
  out = AppendText(out, end, "== gpuscope: ");
  out = AppendText(out, end, message);
  *out++ = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, static_cast<size_t>(out - line));
  (void)ignored;
}

}  // namespace gpuscope::inject
