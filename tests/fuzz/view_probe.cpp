#include "view_probe.h"

#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../viewer/http_client.h"
#include "viewer_questions.h"

namespace gpuscope::fuzz {
namespace {

using Clock = ChildProcess::Clock;

// The first line view prints on stdout, or "" when it ends (or says nothing) before `deadline`.
std::string FirstLine(int fd, Clock::time_point deadline) {
  std::string line;
  while (line.find('\n') == std::string::npos) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return "";
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, static_cast<int>(left.count())) <= 0) return "";
    char buffer[256];
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) return "";
    line.append(buffer, static_cast<std::size_t>(n));
  }
  return line.substr(0, line.find('\n'));
}

// GETs `target` over a fresh connection, waiting until `deadline` at most.
ViewerAnswer Get(std::uint16_t port, const std::string& target, Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  if (left.count() <= 0) return {};
  int fd = viewer::testing::Connect(port);
  if (fd < 0) return {};
  timeval limit{static_cast<time_t>(left.count() / 1000),
                static_cast<suseconds_t>(left.count() % 1000 * 1000)};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  std::string request = viewer::testing::GetRequest(port, target);
  ::send(fd, request.data(), request.size(), MSG_NOSIGNAL);
  viewer::testing::RawResponse response = viewer::testing::ReadResponse(fd);
  ::close(fd);
  return {response.status, response.body};
}

}  // namespace

ViewProbeResult ProbeView(const std::string& gpuscope, const std::string& mutant,
                          const std::string& seed, const std::string& scratch_dir,
                          std::chrono::milliseconds timeout) {
  ViewProbeResult result;
  result.args = {"view", "--exit-after-seconds", std::to_string(timeout.count() / 1000 + 5),
                 mutant, seed};
  std::vector<std::string> argv = {gpuscope};
  argv.insert(argv.end(), result.args.begin(), result.args.end());
  ChildProcess view(argv, "", scratch_dir + "/view.stderr");
  Clock::time_point deadline = Clock::now() + timeout;
  const std::string prefix = "gpuscope: viewer at http://127.0.0.1:";
  std::string first = FirstLine(view.stdout_pipe(), deadline);
  if (first.rfind(prefix, 0) != 0) {
    // It ended (or hangs) before serving: judged like every other command.
    result.outcome = Classify(view.Wait(deadline), {});
    if (result.outcome.verdict == Verdict::kOutput) {
      result.outcome = {Verdict::kFailure, "view: exit 0 without serving: '" + first + "'"};
    }
    return result;
  }
  result.outcome = {Verdict::kOutput, ""};
  auto port = static_cast<std::uint16_t>(std::stoi(first.substr(prefix.size())));
  std::optional<std::string> problem = AskViewer([&](const std::string& target) {
    result.requests.push_back(target);
    return Get(port, target, deadline);
  });
  if (problem) {
    // Appended rather than `"view: " + *problem`, which GCC 12 misreads (-Wrestrict).
    std::string reason = "view: ";
    reason += *problem;
    result.outcome = {Verdict::kFailure, reason};
  }
  view.Signal(SIGINT);
  Ended ended = view.Wait(Clock::now() + std::chrono::seconds(10));
  if (result.outcome.verdict == Verdict::kFailure) {
    // A server that stopped answering because the sanitizer runtime refused CUPTI's library.
    Outcome ending = Classify(ended, {});
    if (ending.verdict == Verdict::kNotUnderSanitizer) result.outcome = ending;
    return result;
  }
  if (ended.timed_out) {
    result.outcome = {Verdict::kFailure, "view: did not stop within 10 s of Ctrl-C"};
  } else if (ended.signal != 0) {
    result.outcome = {Verdict::kFailure, "view: killed by signal " + std::to_string(ended.signal)};
  } else if (HasSanitizerReport(ended.err)) {
    result.outcome = {Verdict::kFailure, "view: sanitizer report on stderr"};
  } else if (ended.exit_code != 0) {
    result.outcome = {Verdict::kFailure,
                      "view: exit " + std::to_string(ended.exit_code) + " after Ctrl-C"};
  }
  return result;
}

}  // namespace gpuscope::fuzz
