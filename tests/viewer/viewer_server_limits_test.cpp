// The viewer server under clients that hold connections open, trickle bytes, ask for
// unbounded work or come all at once: idle and slow clients cost no other client time, a
// request head has a total deadline, a report list is bounded, a full pool answers 503 at
// once, stopping is prompt, and concurrent requests get the answers sequential ones get.
// Real sockets on 127.0.0.1; every wait is bounded.
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "../export/test_reports.h"
#include "http_client.h"
#include "running_server.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"

namespace gpuscope::viewer {
namespace {

using exporter::testing::kRichStart;
using exporter::testing::ScratchDir;
using testing::Connect;
using testing::Get;
using testing::RawResponse;
using testing::RunningServer;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

class ViewerServerLimitsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir();
    exporter::testing::WriteRichReport(dir_->File("a.sqlite"));
    exporter::testing::WriteRichReport(dir_->File("b.sqlite"));
  }
  static void TearDownTestSuite() { delete dir_; }

  // A fresh ViewerData (no cached summaries) served with `limits`.
  std::unique_ptr<RunningServer> Serve(HttpServerLimits limits = {}) {
    auto data = ViewerData::Open({dir_->File("a.sqlite"), dir_->File("b.sqlite")});
    EXPECT_TRUE(data.ok()) << data.status().message();
    data_.push_back(std::move(data.value()));
    ViewerData* served = data_.back().get();
    return std::make_unique<RunningServer>(
        [served](const HttpRequest& request) { return HandleViewerRequest(*served, {}, request); },
        limits);
  }

  static inline ScratchDir* dir_ = nullptr;
  std::vector<std::unique_ptr<ViewerData>> data_;
};

TEST_F(ViewerServerLimitsTest, AnIdleConnectionDoesNotDelayAnotherClient) {
  auto server = Serve();
  int idle = Connect(server->port());
  ASSERT_GE(idle, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // accepted, and silent
  Clock::time_point start = Clock::now();
  EXPECT_EQ(Get(server->port(), "/api/reports").status, 200);
  EXPECT_LT(Since(start).count(), 500);
  ::close(idle);
}

TEST_F(ViewerServerLimitsTest, TenIdleConnectionsDoNotDelayARequest) {
  auto server = Serve();
  std::vector<int> idle;
  for (int i = 0; i < 10; ++i) {
    idle.push_back(Connect(server->port()));
    ASSERT_GE(idle.back(), 0);
    // Half of them started a request and stopped.
    if (i % 2) ASSERT_EQ(::send(idle.back(), "GET /api/rep", 12, MSG_NOSIGNAL), 12);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  Clock::time_point start = Clock::now();
  EXPECT_EQ(Get(server->port(), "/api/tracks?report=0").status, 200);
  EXPECT_EQ(Get(server->port(), "/api/summary").status, 200);
  EXPECT_LT(Since(start).count(), 500);
  for (int fd : idle) ::close(fd);
}

TEST_F(ViewerServerLimitsTest, ASlowLorisIsCutOffAtTheTotalDeadline) {
  HttpServerLimits limits;
  limits.request_deadline = std::chrono::milliseconds(1000);
  auto server = Serve(limits);
  int loris = Connect(server->port());
  ASSERT_GE(loris, 0);
  ASSERT_GT(::send(loris, "GET /api/reports HTTP/1.1\r\nX: ", 30, MSG_NOSIGNAL), 0);
  // One byte every 200 ms, each well within any per-read timeout, until the server answers.
  Clock::time_point start = Clock::now();
  bool answered = false;
  while (!answered && Since(start).count() < 8000) {
    pollfd wait{loris, POLLIN, 0};
    answered = ::poll(&wait, 1, 200) > 0;
    if (!answered) ::send(loris, "a", 1, MSG_NOSIGNAL);
  }
  std::chrono::milliseconds cut = Since(start);
  RawResponse response = testing::ReadResponse(loris);
  ::close(loris);
  EXPECT_TRUE(answered);
  EXPECT_EQ(response.status, 408);
  EXPECT_GE(cut.count(), 700);
  EXPECT_LT(cut.count(), 2000);
}

TEST_F(ViewerServerLimitsTest, AnOverLongReportListIsRefusedAtOnce) {
  auto server = Serve();
  std::string ones = "1";
  for (int i = 1; i < 8000; ++i) ones += ",1";
  Clock::time_point start = Clock::now();
  RawResponse response = Get(server->port(), "/api/summary?reports=" + ones);
  EXPECT_LT(Since(start).count(), 100);
  EXPECT_EQ(response.status, 400);
  EXPECT_NE(response.body.find("lists 8000 reports; at most 2"), std::string::npos)
      << response.body;
  EXPECT_EQ(response.body.find('\n'), std::string::npos);
  EXPECT_EQ(Get(server->port(), "/api/summary?reports=0,1,0").status, 400);
}

TEST_F(ViewerServerLimitsTest, ARepeatedReportIsCountedOnce) {
  auto server = Serve();
  RawResponse once = Get(server->port(), "/api/summary?reports=0");
  ASSERT_EQ(once.status, 200);
  RawResponse twice = Get(server->port(), "/api/summary?reports=0,0");
  ASSERT_EQ(twice.status, 200);
  EXPECT_EQ(twice.body, once.body);  // not every launch counted twice
  RawResponse both = Get(server->port(), "/api/summary?reports=0,1");
  EXPECT_EQ(Get(server->port(), "/api/summary?reports=1,0").body, both.body);
  EXPECT_NE(both.body, once.body);
}

TEST_F(ViewerServerLimitsTest, AFullPoolAnswers503AtOnceAndServesTheQueueLater) {
  std::mutex mutex;
  std::condition_variable released_changed;
  bool released = false;
  std::atomic<int> started{0};
  HttpServerLimits limits;
  limits.workers = 1;
  limits.max_queued = 1;
  RunningServer server(
      [&](const HttpRequest&) {
        ++started;
        std::unique_lock<std::mutex> lock(mutex);
        released_changed.wait_for(lock, std::chrono::seconds(5), [&] { return released; });
        return HttpResponse{200, "text/plain", "done"};
      },
      limits);
  std::vector<std::thread> waiting;
  std::vector<int> statuses(2);
  waiting.emplace_back([&] { statuses[0] = Get(server.port(), "/a").status; });
  while (started.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  waiting.emplace_back([&] { statuses[1] = Get(server.port(), "/b").status; });
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // /b is queued now
  Clock::time_point start = Clock::now();
  EXPECT_EQ(Get(server.port(), "/c").status, 503);
  EXPECT_LT(Since(start).count(), 500);
  {
    std::lock_guard<std::mutex> lock(mutex);
    released = true;
  }
  released_changed.notify_all();
  for (std::thread& thread : waiting) thread.join();
  EXPECT_EQ(statuses, (std::vector<int>{200, 200}));
}

TEST_F(ViewerServerLimitsTest, ConnectionsOverTheLimitAre503AtOnce) {
  HttpServerLimits limits;
  limits.max_connections = 2;
  auto server = Serve(limits);
  int idle[2] = {Connect(server->port()), Connect(server->port())};
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both accepted
  Clock::time_point start = Clock::now();
  EXPECT_EQ(Get(server->port(), "/api/reports").status, 503);
  EXPECT_LT(Since(start).count(), 500);
  ::close(idle[0]);
  ::close(idle[1]);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both gone
  EXPECT_EQ(Get(server->port(), "/api/reports").status, 200);
}

TEST_F(ViewerServerLimitsTest, StopsPromptlyWithConnectionsOpen) {
  auto server = Serve();
  std::vector<int> open;
  for (int i = 0; i < 4; ++i) open.push_back(Connect(server->port()));
  ASSERT_EQ(::send(open[0], "GET /api/rep", 12, MSG_NOSIGNAL), 12);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_LT(server->Stop().count(), 500);
  for (int fd : open) ::close(fd);
}

TEST_F(ViewerServerLimitsTest, ConcurrentRequestsGetTheAnswersSequentialOnesGet) {
  const std::string window = "&start=" + std::to_string(kRichStart) +
                             "&end=" + std::to_string(kRichStart + 100000) + "&px=1000";
  const std::vector<std::string> targets = {
      "/api/kernel?report=0&name=add%28int%2C%20int%2C%20int%2A%29",
      "/api/reports",
      "/api/tracks?report=1",
      "/api/slices?report=0&track=gpu0.s7" + window,
      "/api/event?report=0&type=kernel&id=1",
      "/api/event?report=1&type=api&id=5",
      "/api/event?report=1&type=memcpy&id=1",
      "/api/summary?reports=0",
      "/api/summary?reports=1",
      "/api/summary?reports=0,1",
      "/api/kernel?report=1&name=add%28int%2C%20int%2C%20int%2A%29",
      "/api/diff?a=0&b=1"};
  std::map<std::string, std::string> expected;
  {
    auto sequential = Serve();
    for (const std::string& target : targets) {
      RawResponse response = Get(sequential->port(), target);
      ASSERT_EQ(response.status, 200) << target << ": " << response.body;
      expected[target] = response.body;
    }
  }
  // A fresh server, and clients that start together and ask in the same order: the first
  // summaries and kernel profiles are computed by several workers at once.
  auto server = Serve();
  std::atomic<int> wrong{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> clients;
  for (int c = 0; c < 8; ++c) {
    clients.emplace_back([&] {
      while (!go.load()) std::this_thread::yield();
      for (std::size_t i = 0; i < 3 * targets.size(); ++i) {
        const std::string& target = targets[i % targets.size()];
        RawResponse response = Get(server->port(), target);
        if (response.status != 200 || response.body != expected.at(target)) {
          ++wrong;
          ADD_FAILURE() << target << ": " << response.status << " " << response.body.substr(0, 200);
        }
      }
    });
  }
  go = true;
  for (std::thread& client : clients) client.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace gpuscope::viewer
