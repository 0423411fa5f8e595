// A summary that takes as long as a test needs (its hook waits on a gate): no lock is held
// while it is computed, so every other request, on its report or another, the report list
// included, is answered meanwhile; callers asking for the same summary at once share one
// computation. (A summary of a report with a 10 MB kernel name once held its report's lock
// for minutes, and /api/reports timed out behind it.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
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
using testing::Get;
using testing::HandlerGate;
using testing::RawResponse;
using testing::RunningServer;
using Clock = std::chrono::steady_clock;

class ViewerSlowSummaryTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir();
    exporter::testing::WriteRichReport(dir_->File("a.sqlite"));
    exporter::testing::WriteRichReport(dir_->File("b.sqlite"));
  }
  static void TearDownTestSuite() { delete dir_; }

  void SetUp() override {
    auto data = ViewerData::Open({dir_->File("a.sqlite"), dir_->File("b.sqlite")});
    ASSERT_TRUE(data.ok()) << data.status().message();
    data_ = std::move(data.value());
    // The first summary computed waits for the gate; later ones go straight through.
    data_->set_summary_hook_for_testing([this] {
      if (summaries_computed_++ == 0) gate_.Wait();
    });
    ViewerData* served = data_.get();
    server_ = std::make_unique<RunningServer>(
        [served](const HttpRequest& request) { return HandleViewerRequest(*served, {}, request); });
  }
  void TearDown() override {
    gate_.Open();  // before the server stops, so that no worker is left in the hook
    server_.reset();
  }

  // GET `target` in the background; its answer once joined.
  struct Pending {
    RawResponse response;
    std::thread thread;
  };
  std::unique_ptr<Pending> GetInBackground(const std::string& target) {
    auto pending = std::make_unique<Pending>();
    Pending* raw = pending.get();
    pending->thread = std::thread([this, raw, target] { raw->response = Get(port(), target); });
    return pending;
  }

  std::uint16_t port() const { return server_->port(); }

  static inline ScratchDir* dir_ = nullptr;
  HandlerGate gate_;
  std::atomic<int> summaries_computed_{0};
  std::unique_ptr<ViewerData> data_;
  std::unique_ptr<RunningServer> server_;
};

TEST_F(ViewerSlowSummaryTest, EveryOtherRequestIsAnsweredWhileASummaryIsComputed) {
  std::unique_ptr<Pending> slow = GetInBackground("/api/summary?reports=0,1");
  ASSERT_TRUE(gate_.AwaitEntered(1, std::chrono::milliseconds(10000)));
  const std::string window = "&start=" + std::to_string(kRichStart) +
                             "&end=" + std::to_string(kRichStart + 100000) + "&px=1000";
  for (const std::string& target :
       {std::string("/api/reports"), std::string("/api/tracks?report=0"),
        "/api/slices?report=0&track=gpu0.s7" + window,
        std::string("/api/event?report=0&type=kernel&id=1"),
        std::string("/api/event?report=1&type=api&id=5"),
        std::string("/api/kernel?report=0&name=add%28int%2C%20int%2C%20int%2A%29"),
        std::string("/api/findings?report=0"), std::string("/api/findings?report=1"),
        std::string("/api/summary?reports=1"), std::string("/api/diff?a=0&b=1")}) {
    Clock::time_point start = Clock::now();
    RawResponse response = Get(port(), target);
    EXPECT_EQ(response.status, 200) << target << ": " << response.body.substr(0, 200);
    // Generous: the summary waits 30 s for the gate, and a request behind it would too.
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(10)) << target;
  }
  EXPECT_EQ(summaries_computed_.load(), 2);  // the slow one, still waiting, and report 1's
  gate_.Open();
  slow->thread.join();
  EXPECT_EQ(slow->response.status, 200) << slow->response.body.substr(0, 200);
  EXPECT_NE(slow->response.body.find("\"cuda_gpu_kern_sum\""), std::string::npos);
}

TEST_F(ViewerSlowSummaryTest, CallersAskingForOneSummaryAtOnceShareOneComputation) {
  std::vector<std::unique_ptr<Pending>> callers;
  callers.push_back(GetInBackground("/api/summary?reports=0"));
  ASSERT_TRUE(gate_.AwaitEntered(1, std::chrono::milliseconds(10000)));
  callers.push_back(GetInBackground("/api/summary?reports=0"));
  callers.push_back(GetInBackground("/api/summary?reports=0,0"));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // both are waiting
  gate_.Open();
  for (auto& caller : callers) caller->thread.join();
  for (auto& caller : callers) {
    EXPECT_EQ(caller->response.status, 200);
    EXPECT_EQ(caller->response.body, callers[0]->response.body);
  }
  EXPECT_EQ(summaries_computed_.load(), 1);
}

}  // namespace
}  // namespace gpuscope::viewer
