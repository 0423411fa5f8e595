// The viewer server under clients that hold connections open, trickle bytes, ask for
// unbounded work or come all at once: idle and slow clients cost no other client time, a
// request head has a total deadline, a report list is bounded, a full pool answers 503 at
// once, sockets held open cannot keep a fresh client out, stopping is prompt even while a
// handler computes, and concurrent requests get the answers sequential ones get.
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
#include "handler_gate.h"
#include "http_client.h"
#include "running_server.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"

namespace gpuscope::viewer {
namespace {

using exporter::testing::kRichStart;
using exporter::testing::ScratchDir;
using testing::Connect;
using testing::ConnectFrom;
using testing::Get;
using testing::HandlerGate;
using testing::RawResponse;
using testing::RunningServer;
using Clock = std::chrono::steady_clock;

std::chrono::milliseconds Since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

// Whether the server closed `fd` within `limit` (reading and dropping what it sent first).
bool ClosedWithin(int fd, std::chrono::milliseconds limit) {
  Clock::time_point start = Clock::now();
  char buffer[4096];
  while (Since(start) < limit) {
    pollfd wait{fd, POLLIN, 0};
    if (::poll(&wait, 1, 50) <= 0) continue;
    if (::recv(fd, buffer, sizeof buffer, 0) <= 0) return true;
  }
  return false;
}

// Sends a GET of `target` on the open connection `fd` and reads the answer.
RawResponse GetOn(int fd, std::uint16_t port, const std::string& target) {
  std::string request = testing::GetRequest(port, target);
  if (::send(fd, request.data(), request.size(), MSG_NOSIGNAL) !=
      static_cast<ssize_t>(request.size())) {
    return {};
  }
  ::shutdown(fd, SHUT_WR);
  return testing::ReadResponse(fd);
}

// A local process that keeps `count` silent connections open on the server, from `source`,
// and re-opens each one the server cuts, until it is destroyed.
class IdleSocketHolder {
 public:
  IdleSocketHolder(std::uint16_t port, std::size_t count, const char* source)
      : thread_([this, port, count, source] {
          std::vector<pollfd> held;
          for (std::size_t i = 0; i < count; ++i)
            held.push_back({ConnectFrom(port, source), POLLIN, 0});
          holding_ = true;
          while (!stop_) {
            if (::poll(held.data(), held.size(), 50) <= 0) continue;
            for (pollfd& socket : held) {
              if (socket.revents == 0) continue;
              ::close(socket.fd);
              socket.fd = ConnectFrom(port, source);
              ++reopened_;
            }
          }
          for (pollfd& socket : held) ::close(socket.fd);
        }) {
    while (!holding_) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // all accepted
  }
  ~IdleSocketHolder() {
    stop_ = true;
    thread_.join();
  }
  int reopened() const { return reopened_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<bool> holding_{false};
  std::atomic<int> reopened_{0};
  std::thread thread_;
};

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
    if (i % 2) {
      ASSERT_EQ(::send(idle.back(), "GET /api/rep", 12, MSG_NOSIGNAL), 12);
    }
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

TEST_F(ViewerServerLimitsTest, AtTheLimitANewcomerCutsTheIdlestConnection) {
  HttpServerLimits limits;
  limits.max_connections = 2;
  auto server = Serve(limits);
  int idlest = Connect(server->port());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  int idle = Connect(server->port());
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // both accepted
  EXPECT_EQ(Get(server->port(), "/api/reports").status, 200);
  EXPECT_TRUE(ClosedWithin(idlest, std::chrono::milliseconds(5000)));
  // The other one was left alone: it still gets its answer.
  EXPECT_EQ(GetOn(idle, server->port(), "/api/reports").status, 200);
  ::close(idlest);
  ::close(idle);
}

TEST_F(ViewerServerLimitsTest, ConnectionsOverTheLimitAre503AtOnceWhenAllAreHandled) {
  auto gate = std::make_shared<HandlerGate>();
  HttpServerLimits limits;
  limits.max_connections = 2;
  limits.workers = 2;
  RunningServer server(
      [gate](const HttpRequest&) {
        gate->Wait();
        return HttpResponse{200, "text/plain", "done"};
      },
      limits);
  std::vector<std::thread> handled;
  std::vector<int> statuses(2);
  for (int i = 0; i < 2; ++i) {
    handled.emplace_back([&, i] { statuses[i] = Get(server.port(), "/slow").status; });
  }
  ASSERT_TRUE(gate->AwaitEntered(2, std::chrono::milliseconds(10000)));
  Clock::time_point start = Clock::now();
  EXPECT_EQ(Get(server.port(), "/c").status, 503);
  EXPECT_LT(Since(start).count(), 2000);
  gate->Open();
  for (std::thread& thread : handled) thread.join();
  EXPECT_EQ(statuses, (std::vector<int>{200, 200}));
}

// 256 idle sockets re-opened as they were cut once kept 22 of 24 fresh clients out.
TEST_F(ViewerServerLimitsTest, IdleSocketsReopenedAsTheyAreCutDoNotKeepAFreshClientOut) {
  auto server = Serve();  // the default limit of connections
  IdleSocketHolder holder(server->port(), HttpServerLimits().max_connections, "127.0.0.1");
  int served = 0;
  for (int probe = 0; probe < 24; ++probe) {
    if (Get(server->port(), "/api/reports").status == 200) ++served;
  }
  EXPECT_EQ(served, 24);
  EXPECT_GE(holder.reopened(), 1);  // the holder's sockets were the ones cut
}

TEST_F(ViewerServerLimitsTest, AnAddressHoldingTheMostConnectionsLosesOneFirst) {
  HttpServerLimits limits;
  limits.max_connections = 4;
  auto server = Serve(limits);
  // A client of 127.0.0.1 with one idle connection open, the oldest (a browser's
  // pre-connect), then 127.0.0.2 with the three others.
  int browser = ConnectFrom(server->port(), "127.0.0.1");
  ASSERT_GE(browser, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::vector<int> hog;
  for (int i = 0; i < 3; ++i) {
    hog.push_back(ConnectFrom(server->port(), "127.0.0.2"));
    ASSERT_GE(hog.back(), 0) << "no address 127.0.0.2 to connect from";
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // all accepted
  int fresh = ConnectFrom(server->port(), "127.0.0.3");
  ASSERT_GE(fresh, 0);
  EXPECT_EQ(GetOn(fresh, server->port(), "/api/reports").status, 200);
  EXPECT_TRUE(ClosedWithin(hog[0], std::chrono::milliseconds(5000)));
  EXPECT_EQ(GetOn(browser, server->port(), "/api/reports").status, 200);
  ::close(fresh);
  ::close(browser);
  for (int fd : hog) ::close(fd);
}

// A handler that never returns (a summary of a report with a 10 MB kernel name once kept
// `gpuscope view` from ever stopping) does not keep the server from stopping.
TEST_F(ViewerServerLimitsTest, StopsPromptlyWhileAHandlerIsStillComputing) {
  // Shared with the handler, which the stopping server leaves running.
  auto gate = std::make_shared<HandlerGate>();
  auto server = std::make_unique<RunningServer>([gate](const HttpRequest&) {
    gate->Wait();
    return HttpResponse{200, "text/plain", "late"};
  });
  RawResponse answer;
  std::thread client([&] { answer = Get(server->port(), "/slow"); });
  ASSERT_TRUE(gate->AwaitEntered(1, std::chrono::milliseconds(10000)));
  EXPECT_LT(server->Stop().count(), 2000);
  client.join();  // its connection was dropped: no answer
  EXPECT_EQ(answer.status, 0);
  gate->Open();
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
