// `gpuscope view` and `gpuscope report` as a user runs them.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <thread>

#include "../export/test_reports.h"
#include "../support/gpuscope_process.h"
#include "http_client.h"

namespace gpuscope::viewer {
namespace {

using cli::testing::GpuscopeBinary;
using cli::testing::GpuscopeProcess;
using cli::testing::RunGpuscope;
using exporter::testing::ReadWholeFile;
using exporter::testing::ScratchDir;

// A client that keeps a request head coming, one byte every 200 ms, for at most 6 s.
class SlowLoris {
 public:
  explicit SlowLoris(std::uint16_t port)
      : thread_([this, port] {
          int fd = testing::Connect(port);
          if (fd < 0) return;
          ::send(fd, "GET / HTTP/1.1\r\nX: ", 19, MSG_NOSIGNAL);
          for (int i = 0; i < 30 && !stop_; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            if (::send(fd, "a", 1, MSG_NOSIGNAL) != 1) break;
          }
          ::close(fd);
        }) {}
  ~SlowLoris() {
    stop_ = true;
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

std::chrono::milliseconds Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                               start);
}

// A port that was free a moment ago (for a `view` whose output is only read at the end).
std::uint16_t FreePort() {
  int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  EXPECT_EQ(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(probe);
  return ntohs(address.sin_port);
}

// Whether something listens on `port` within `limit`.
bool ListeningWithin(std::uint16_t port, std::chrono::milliseconds limit) {
  auto start = std::chrono::steady_clock::now();
  while (Since(start) < limit) {
    int up = testing::Connect(port);
    if (up >= 0) {
      ::close(up);
      return true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// A report whose summary takes seconds to compute: its trace tables have a row per event
// (about 8 s on a loaded 2-core machine).
constexpr std::uint64_t kSlowSummaryKernels = 200000;

TEST(ViewBinaryTest, PrintsTheUrlServesTheApiAndStops) {
  ScratchDir dir;
  exporter::testing::WriteRichReport(dir.File("rich.sqlite"));
  std::string command =
      GpuscopeBinary() + " view --exit-after-seconds 3 " + dir.File("rich.sqlite") + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  auto start = std::chrono::steady_clock::now();
  char line[512] = {};
  ASSERT_NE(::fgets(line, sizeof line, pipe), nullptr);
  std::string first(line);
  const std::string prefix = "gpuscope: viewer at http://127.0.0.1:";
  ASSERT_EQ(first.rfind(prefix, 0), 0u) << first;
  EXPECT_NE(first.find("/ (Ctrl-C to stop)"), std::string::npos) << first;
  auto port = static_cast<std::uint16_t>(std::stoi(first.substr(prefix.size())));
  testing::RawResponse reports = testing::Get(port, "/api/reports");
  EXPECT_EQ(reports.status, 200);
  EXPECT_NE(reports.body.find("\"pid\":4242"), std::string::npos);
  EXPECT_EQ(testing::Get(port, "/").status, 200);
  // A client trickling a request head must not hold it past --exit-after-seconds.
  SlowLoris loris(port);
  // Read to the end (the stop message) so that the pipe is not closed under the writer.
  std::string rest;
  while (::fgets(line, sizeof line, pipe) != nullptr) rest += line;
  EXPECT_NE(rest.find("viewer stopped"), std::string::npos) << rest;
  EXPECT_EQ(::pclose(pipe), 0);
  EXPECT_LT(Since(start).count(), 4500);
}

TEST(ViewBinaryTest, SigtermStopsItWhileASlowClientIsConnected) {
  ScratchDir dir;
  exporter::testing::WriteRichReport(dir.File("rich.sqlite"));
  std::uint16_t port = FreePort();
  GpuscopeProcess view({"view", "--port", std::to_string(port), dir.File("rich.sqlite")}, {});
  ASSERT_TRUE(ListeningWithin(port, std::chrono::milliseconds(5000)))
      << "the viewer did not start listening";
  SlowLoris loris(port);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  auto start = std::chrono::steady_clock::now();
  ::kill(view.pid(), SIGTERM);
  cli::testing::Finished finished = view.Finish();
  EXPECT_LT(Since(start).count(), 1000);
  EXPECT_EQ(finished.exit_code, 0) << finished.err;
  EXPECT_NE(finished.out.find("viewer stopped"), std::string::npos) << finished.out;
}

// A report with a 10 MB kernel name once made /api/summary compute for ever, and the viewer
// waited for it: it ignored SIGTERM and --exit-after-seconds.
TEST(ViewBinaryTest, SigtermStopsItWhileASummaryIsComputed) {
  ScratchDir dir;
  exporter::testing::WriteSyntheticReport(dir.File("big.sqlite"), kSlowSummaryKernels);
  std::uint16_t port = FreePort();
  GpuscopeProcess view({"view", "--port", std::to_string(port), dir.File("big.sqlite")}, {});
  ASSERT_TRUE(ListeningWithin(port, std::chrono::milliseconds(30000)))
      << "the viewer did not start listening";
  // Its connection is dropped when the viewer stops.
  std::thread summary([port] { testing::Get(port, "/api/summary?reports=0"); });
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // being computed
  auto start = std::chrono::steady_clock::now();
  ::kill(view.pid(), SIGTERM);
  cli::testing::Finished finished = view.Finish();
  EXPECT_LT(Since(start).count(), 3000);
  summary.join();
  EXPECT_EQ(finished.exit_code, 0) << finished.err;
  EXPECT_NE(finished.out.find("viewer stopped"), std::string::npos) << finished.out;
}

TEST(ViewBinaryTest, ExitAfterSecondsStopsItWhileASummaryIsComputed) {
  ScratchDir dir;
  exporter::testing::WriteSyntheticReport(dir.File("big.sqlite"), kSlowSummaryKernels);
  std::uint16_t port = FreePort();
  GpuscopeProcess view(
      {"view", "--port", std::to_string(port), "--exit-after-seconds", "1", dir.File("big.sqlite")},
      {});
  ASSERT_TRUE(ListeningWithin(port, std::chrono::milliseconds(30000)))
      << "the viewer did not start listening";
  auto start = std::chrono::steady_clock::now();  // the second counts from about now
  std::thread summary([port] { testing::Get(port, "/api/summary?reports=0"); });
  cli::testing::Finished finished = view.Finish();
  EXPECT_LT(Since(start).count(), 4000);
  summary.join();
  EXPECT_EQ(finished.exit_code, 0) << finished.err;
  EXPECT_NE(finished.out.find("viewer stopped"), std::string::npos) << finished.out;
}

TEST(ViewBinaryTest, UsageAndReportErrors) {
  ScratchDir dir;
  EXPECT_EQ(RunGpuscope({"view"}).exit_code, 2);
  EXPECT_EQ(RunGpuscope({"view", "--port", "70000", "x.sqlite"}).exit_code, 2);
  auto missing = RunGpuscope({"view", dir.File("missing.sqlite")});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
  auto help = RunGpuscope({"view", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("127.0.0.1"), std::string::npos);
}

TEST(ReportBinaryTest, WritesOneHtmlFile) {
  ScratchDir dir;
  exporter::testing::WriteRichReport(dir.File("rich.sqlite"));
  auto done = RunGpuscope({"report", dir.File("rich.sqlite"), "-o", dir.File("out.html")});
  ASSERT_EQ(done.exit_code, 0) << done.err;
  std::string html = ReadWholeFile(dir.File("out.html"));
  EXPECT_NE(html.find("id=\"gpuscope-data\""), std::string::npos);
  EXPECT_EQ(html.find(exporter::testing::kHostileKernel), std::string::npos);
  auto cut = RunGpuscope({"report", dir.File("rich.sqlite"), "--max-events", "4"});
  ASSERT_EQ(cut.exit_code, 0) << cut.err;
  EXPECT_TRUE(std::filesystem::exists(dir.File("rich.html")));
  EXPECT_NE(cut.err.find("embedded"), std::string::npos) << cut.err;
  EXPECT_EQ(RunGpuscope({"report", "--max-events", "0", dir.File("rich.sqlite")}).exit_code, 2);
  EXPECT_EQ(RunGpuscope({"report", dir.File("nope.sqlite")}).exit_code, 1);
}

}  // namespace
}  // namespace gpuscope::viewer
