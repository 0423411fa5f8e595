#include "evaluate/isolated_evaluation.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "evaluate/cupti_fork_lock.h"

namespace gpuscope::evaluate {
namespace {

// The child's answer on the pipe: one byte (1 values, 0 error), then for values the count and
// per value a presence byte and the double; for an error its message.
std::string Encode(StatusOr<std::vector<std::optional<double>>> result) {
  std::string bytes;
  if (!result.ok()) {
    bytes.push_back('\0');
    bytes += result.status().message();
    return bytes;
  }
  bytes.push_back('\1');
  std::uint64_t count = result->size();
  bytes.append(reinterpret_cast<const char*>(&count), sizeof count);
  for (const std::optional<double>& value : *result) {
    bytes.push_back(value.has_value() ? '\1' : '\0');
    double number = value.value_or(0.0);
    bytes.append(reinterpret_cast<const char*>(&number), sizeof number);
  }
  return bytes;
}

StatusOr<std::vector<std::optional<double>>> Decode(const std::string& bytes,
                                                    std::size_t expected) {
  const Status garbled = Status::Error("the evaluating process gave no whole answer");
  if (bytes.empty()) return garbled;
  if (bytes[0] == '\0') return Status::Error(bytes.substr(1));
  std::uint64_t count = 0;
  if (bytes.size() < 1 + sizeof count) return garbled;
  std::memcpy(&count, bytes.data() + 1, sizeof count);
  if (count != expected || bytes.size() != 1 + sizeof count + count * (1 + sizeof(double))) {
    return garbled;
  }
  std::vector<std::optional<double>> values;
  const char* at = bytes.data() + 1 + sizeof count;
  for (std::uint64_t i = 0; i < count; ++i, at += 1 + sizeof(double)) {
    double number = 0;
    std::memcpy(&number, at + 1, sizeof number);
    values.push_back(at[0] == '\1' ? std::optional<double>(number) : std::nullopt);
  }
  return values;
}

void WriteAll(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
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

StatusOr<std::vector<std::optional<double>>> EvaluateIsolated(
    cupti::host::MetricHost& host, std::span<const std::uint8_t> counter_data, std::size_t range,
    const std::vector<std::string>& names, std::chrono::milliseconds limit) {
  std::lock_guard<std::mutex> one_at_a_time(CuptiForkLock());
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::Error(std::string("cannot evaluate the counter data: pipe: ") +
                         std::strerror(errno));
  }
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Error(std::string("cannot evaluate the counter data: fork: ") +
                         std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    WriteAll(fds[1], Encode(host.Evaluate(counter_data, range, names)));
    // No exit handlers or destructors: they belong to the parent.
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string answer;
  bool finished = ReadAll(fds[0], std::chrono::steady_clock::now() + limit, answer);
  ::close(fds[0]);
  if (!finished) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) {
    return Status::Error("CUPTI's evaluation of the counter data did not finish within " +
                         std::to_string(limit.count() / 1000) + " s (damaged image?)");
  }
  if (WIFSIGNALED(status)) {
    return Status::Error("CUPTI's host library crashed on the counter data (signal " +
                         std::to_string(WTERMSIG(status)) + "): the image is damaged");
  }
  return Decode(answer, names.size());
}

}  // namespace gpuscope::evaluate
