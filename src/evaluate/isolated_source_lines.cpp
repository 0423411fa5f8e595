#include "evaluate/isolated_source_lines.h"

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

using Lines = std::vector<std::vector<std::optional<cupti::host::SourceLocation>>>;

// The child's answer: per pc in order, a presence byte, then for a line its number and the
// file name's length (both uint32) and the name's bytes.
std::string Encode(std::span<const std::uint8_t> cubin, const std::vector<FunctionPcs>& functions) {
  std::string bytes;
  for (const FunctionPcs& function : functions) {
    for (std::uint64_t pc : function.pcs) {
      std::optional<cupti::host::SourceLocation> line =
          cupti::host::SourceLineOf(cubin, function.function, pc);
      bytes.push_back(line ? '\1' : '\0');
      if (!line) continue;
      std::uint32_t numbers[2] = {line->line, static_cast<std::uint32_t>(line->file.size())};
      bytes.append(reinterpret_cast<const char*>(numbers), sizeof numbers);
      bytes += line->file;
    }
  }
  return bytes;
}

StatusOr<Lines> Decode(const std::string& bytes, const std::vector<FunctionPcs>& functions) {
  const Status garbled = Status::Error("the line-reading process gave no whole answer");
  Lines lines;
  std::size_t at = 0;
  for (const FunctionPcs& function : functions) {
    lines.emplace_back();
    for (std::size_t i = 0; i < function.pcs.size(); ++i) {
      if (at >= bytes.size()) return garbled;
      if (bytes[at++] == '\0') {
        lines.back().push_back(std::nullopt);
        continue;
      }
      std::uint32_t numbers[2];
      if (bytes.size() - at < sizeof numbers) return garbled;
      std::memcpy(numbers, bytes.data() + at, sizeof numbers);
      at += sizeof numbers;
      if (bytes.size() - at < numbers[1]) return garbled;
      lines.back().push_back(cupti::host::SourceLocation{bytes.substr(at, numbers[1]), numbers[0]});
      at += numbers[1];
    }
  }
  if (at != bytes.size()) return garbled;
  return lines;
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

StatusOr<Lines> SourceLinesIsolated(std::span<const std::uint8_t> cubin,
                                    const std::vector<FunctionPcs>& functions,
                                    std::chrono::milliseconds limit) {
  std::lock_guard<std::mutex> one_at_a_time(CuptiForkLock());
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    return Status::Error(std::string("cannot read source lines: pipe: ") + std::strerror(errno));
  }
  pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Error(std::string("cannot read source lines: fork: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::close(fds[0]);
    WriteAll(fds[1], Encode(cubin, functions));
    ::_exit(0);  // no exit handlers or destructors: they belong to the parent
  }
  ::close(fds[1]);
  std::string answer;
  bool finished = ReadAll(fds[0], std::chrono::steady_clock::now() + limit, answer);
  ::close(fds[0]);
  if (!finished) ::kill(child, SIGKILL);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!finished) return Status::Error("reading the cubin's line table did not finish in time");
  if (WIFSIGNALED(status)) {
    return Status::Error("CUPTI crashed reading the cubin's line table (signal " +
                         std::to_string(WTERMSIG(status)) + "): the cubin is damaged");
  }
  return Decode(answer, functions);
}

}  // namespace gpuscope::evaluate
