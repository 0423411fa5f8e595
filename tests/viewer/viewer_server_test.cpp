// The viewer server in-process on a free port, queried with a raw socket client: every
// endpoint, assets, errors, malformed HTTP, and the loopback-only rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "../export/test_reports.h"
#include "../support/json_checker.h"
#include "../support/json_expect.h"
#include "http_client.h"
#include "running_server.h"
#include "viewer/http_server.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();  // generated from tests/viewer/data/web

namespace {

using analysis::testing::JsonValue;
using analysis::testing::ParsedJsonOrFail;
using analysis::testing::ParseJson;
using exporter::testing::kHostileKernel;
using exporter::testing::kRichStart;
using exporter::testing::ScratchDir;
using testing::Get;
using testing::RawResponse;
using testing::SendRaw;

std::string UrlEncode(std::string_view text) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

class ViewerServerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new ScratchDir();
    exporter::testing::WriteRichReport(dir_->File("a.sqlite"));
    exporter::testing::WriteRichReport(dir_->File("b.sqlite"));
    auto data = ViewerData::Open({dir_->File("a.sqlite"), dir_->File("b.sqlite")});
    ASSERT_TRUE(data.ok()) << data.status().message();
    data_ = data.value().release();
    server_ = new testing::RunningServer([](const HttpRequest& request) {
      return HandleViewerRequest(*data_, PlaceholderWebAssets(), request);
    });
  }
  static void TearDownTestSuite() {
    delete server_;
    delete data_;
    delete dir_;
  }
  static std::uint16_t port() { return server_->port(); }
  static JsonValue GetJson(const std::string& target, int expected_status = 200) {
    RawResponse response = Get(port(), target);
    EXPECT_EQ(response.status, expected_status) << target << ": " << response.body;
    EXPECT_NE(response.head.find("Content-Type: application/json"), std::string::npos);
    return ParsedJsonOrFail(response.body);
  }

  static inline ScratchDir* dir_ = nullptr;
  static inline ViewerData* data_ = nullptr;
  static inline testing::RunningServer* server_ = nullptr;
};

TEST_F(ViewerServerTest, ListensOnLoopbackOnlyAndRefusesOtherAddresses) {
  EXPECT_EQ(server_->server().bound_address(), "127.0.0.1");
  EXPECT_GT(port(), 0);
  for (const char* address : {"0.0.0.0", "::", "192.168.1.1", "localhost", ""}) {
    auto other = HttpServer::Listen(address, 0);
    ASSERT_FALSE(other.ok()) << address;
    EXPECT_NE(other.status().message().find("only listens on 127.0.0.1"), std::string::npos);
  }
}

TEST_F(ViewerServerTest, ServesAssetsWithTheirContentTypes) {
  RawResponse index = Get(port(), "/");
  EXPECT_EQ(index.status, 200);
  EXPECT_NE(index.head.find("Content-Type: text/html; charset=utf-8"), std::string::npos);
  EXPECT_NE(index.body.find("placeholder"), std::string::npos);
  RawResponse script = Get(port(), "/lib/describe.js");
  EXPECT_EQ(script.status, 200);
  EXPECT_NE(script.head.find("Content-Type: text/javascript"), std::string::npos);
  RawResponse css = Get(port(), "/style.css");
  EXPECT_NE(css.head.find("Content-Type: text/css"), std::string::npos);
  EXPECT_EQ(Get(port(), "/nothing.js").status, 404);
  EXPECT_EQ(Get(port(), "/../../etc/passwd").status, 404);
  EXPECT_EQ(Get(port(), "/%2e%2e/CMakeLists.txt").status, 404);
}

TEST_F(ViewerServerTest, ReportsAndTracks) {
  JsonValue reports = GetJson("/api/reports");
  ASSERT_EQ(reports.array.size(), 2u);
  const JsonValue& first = reports.array[0];
  EXPECT_EQ(first.Find("index")->text, "0");
  EXPECT_EQ(first.Find("pid")->text, "4242");
  EXPECT_EQ(first.Find("hostname")->text, "node\"1");
  EXPECT_EQ(first.Find("start")->text, std::to_string(kRichStart));
  EXPECT_EQ(first.Find("devices")->array[0].Find("cc")->text, "9.0");
  EXPECT_EQ(first.Find("devices")->array[0].Find("sms")->text, "132");
  EXPECT_EQ(first.Find("counts")->Find("kernels")->text, "3");
  EXPECT_EQ(first.Find("counts")->Find("api_calls")->text, "7");
  EXPECT_FALSE(first.Find("warnings")->array.empty());
  EXPECT_EQ(first.Find("has_metrics")->kind, JsonValue::Kind::kBool);

  JsonValue tracks = GetJson("/api/tracks?report=1");
  ASSERT_EQ(tracks.array.size(), 5u);
  EXPECT_EQ(tracks.array[0].Find("id")->text, "gpu0.s7");
  EXPECT_EQ(tracks.array[0].Find("kind")->text, "gpu");
  EXPECT_EQ(tracks.array[2].Find("kind")->text, "counter");
  EXPECT_EQ(tracks.array[3].Find("group")->text, "Threads");
  EXPECT_EQ(tracks.array[4].Find("kind")->text, "nvtx");
  EXPECT_EQ(tracks.array[4].Find("depth")->text, "3");
}

TEST_F(ViewerServerTest, SlicesOfATrack) {
  std::string window = "&start=" + std::to_string(kRichStart) +
                       "&end=" + std::to_string(kRichStart + 100000) + "&px=1000";
  JsonValue slices = GetJson("/api/slices?report=0&track=gpu0.s13" + window);
  ASSERT_EQ(slices.Find("slices")->array.size(), 1u);
  const JsonValue& kernel = slices.Find("slices")->array[0];
  EXPECT_EQ(kernel.Find("name")->text, kHostileKernel);
  EXPECT_EQ(kernel.Find("type")->text, "kernel");
  EXPECT_EQ(kernel.Find("s")->text, std::to_string(kRichStart + 5000));
  JsonValue narrow =
      GetJson("/api/slices?report=0&track=gpu0.s7" + window.substr(0, window.size() - 4) + "2");
  // On 2 pixels of 50 us each, the three stream-7 activities are narrower than a pixel.
  EXPECT_TRUE(narrow.Find("slices")->array.empty());
  std::uint64_t merged = 0;
  for (const JsonValue& bucket : narrow.Find("buckets")->array) {
    merged += std::stoull(bucket.Find("count")->text);
  }
  EXPECT_EQ(merged, 3u);
}

TEST_F(ViewerServerTest, EventDetailsWithRelatedEvents) {
  // Kernel rows: id 1 is add (stream 7), id 2 the hostile one.
  JsonValue kernel = GetJson("/api/event?report=0&type=kernel&id=1");
  EXPECT_EQ(kernel.Find("name")->text, "add(int, int, int*)");
  EXPECT_EQ(kernel.Find("grid_x")->text, "4");
  EXPECT_EQ(kernel.Find("duration")->text, "3424");
  const JsonValue* related = kernel.Find("related");
  ASSERT_NE(related, nullptr);
  ASSERT_EQ(related->array.size(), 1u);
  EXPECT_EQ(related->array[0].Find("type")->text, "api");
  EXPECT_EQ(related->array[0].Find("track")->text, "t77");
  EXPECT_EQ(related->array[0].Find("s")->text, std::to_string(kRichStart + 2000));

  JsonValue copy = GetJson("/api/event?report=0&type=memcpy&id=1");
  EXPECT_EQ(copy.Find("related")->array.size(), 2u);  // the driver call and the runtime call

  // API call id 5 is cudaMemcpy (runtime, correlation 5): it links to the copy.
  JsonValue api = GetJson("/api/event?report=0&type=api&id=5");
  EXPECT_EQ(api.Find("name")->text, "cudaMemcpy");
  ASSERT_EQ(api.Find("related")->array.size(), 1u);
  EXPECT_EQ(api.Find("related")->array[0].Find("type")->text, "memcpy");
  EXPECT_EQ(api.Find("related")->array[0].Find("track")->text, "gpu0.s7");

  JsonValue range = GetJson("/api/event?report=0&type=nvtx&id=4");
  EXPECT_EQ(range.Find("kind")->text, "start/end range");
  EXPECT_TRUE(range.Find("related")->array.empty());
  GetJson("/api/event?report=0&type=kernel&id=999", 404);
}

TEST_F(ViewerServerTest, SummaryKernelPageAndDiff) {
  JsonValue summary = GetJson("/api/summary?reports=0,1");
  const JsonValue* tables = summary.Find("tables");
  ASSERT_NE(tables, nullptr);
  for (const char* name : {"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_mem_time_sum",
                           "cuda_gpu_mem_size_sum", "nvtx_sum"}) {
    EXPECT_NE(tables->Find(name), nullptr) << name;
  }
  JsonValue page = GetJson("/api/kernel?report=0&name=" + UrlEncode("add(int, int, int*)"));
  EXPECT_EQ(page.Find("mangled")->text, "_Z3addiiPi");
  // Two launches, one without timestamps (as a profiled launch is): it counts as a launch
  // but not in the times.
  EXPECT_EQ(page.Find("launches")->text, "2");
  EXPECT_EQ(page.Find("timed")->text, "1");
  EXPECT_EQ(page.Find("total")->text, "3424");
  EXPECT_EQ(page.Find("avg")->text, "3424");
  EXPECT_EQ(page.Find("min")->text, "3424");
  ASSERT_EQ(page.Find("configs")->array.size(), 1u);
  EXPECT_EQ(page.Find("configs")->array[0].Find("count")->text, "2");
  EXPECT_EQ(page.Find("configs")->array[0].Find("block")->array[0].text, "256");
  EXPECT_EQ(page.Find("roofline")->kind, JsonValue::Kind::kNull);
  JsonValue hostile = GetJson("/api/kernel?report=1&name=" + UrlEncode(kHostileKernel));
  EXPECT_EQ(hostile.Find("name")->text, kHostileKernel);
  GetJson("/api/kernel?report=0&name=nope", 404);

  JsonValue diff = GetJson("/api/diff?a=0&b=1");
  ASSERT_EQ(diff.array.size(), 2u);
  EXPECT_EQ(diff.array[0].Find("delta_total")->text, "0");
  EXPECT_EQ(diff.array[0].Find("a")->Find("count")->text, "1");
}

// A range of the timeline gets the stats tables of the events that overlap it: the rich
// report's add() runs [4000, 7424), the hostile kernel [5000, 6000).
TEST_F(ViewerServerTest, SummaryOfATimeRange) {
  auto kernels = [](const JsonValue& summary) {
    std::vector<std::string> names;
    const JsonValue* table = summary.Find("tables")->Find("cuda_gpu_kern_sum");
    for (const JsonValue& row : table->array) names.push_back(row.Find("Name")->text);
    std::sort(names.begin(), names.end());
    return names;
  };
  auto range = [](std::uint64_t from, std::uint64_t to) {
    return "/api/summary?reports=0&start=" + std::to_string(kRichStart + from) +
           "&end=" + std::to_string(kRichStart + to);
  };
  JsonValue whole = GetJson("/api/summary?reports=0");
  ASSERT_EQ(kernels(whole).size(), 2u);
  // Only add() overlaps [3900, 4500); both overlap [5500, 5600); none [8000, 9000).
  EXPECT_EQ(kernels(GetJson(range(3900, 4500))), std::vector<std::string>{"add(int, int, int*)"});
  EXPECT_EQ(kernels(GetJson(range(5500, 5600))), kernels(whole));
  EXPECT_TRUE(kernels(GetJson(range(8000, 9000))).empty());
  // A range that holds the whole report gives the whole report's numbers.
  JsonValue all = GetJson(range(0, 1'000'000'000));
  for (const char* name : {"cuda_gpu_kern_sum", "cuda_api_sum", "cuda_gpu_mem_time_sum",
                           "cuda_gpu_mem_size_sum", "nvtx_sum", "cuda_gpu_kern_gb_sum"}) {
    ASSERT_NE(all.Find("tables")->Find(name), nullptr) << name;
    EXPECT_EQ(all.Find("tables")->Find(name)->array.size(),
              whole.Find("tables")->Find(name)->array.size())
        << name;
  }
  for (const std::string& bad :
       std::vector<std::string>{range(20, 10), "/api/summary?reports=0&start=5",
                                "/api/summary?reports=0&start=5&end=x"}) {
    JsonValue error = GetJson(bad, 400);
    EXPECT_NE(error.Find("error"), nullptr) << bad;
  }
}

// The search box: names containing the text, any case; the untimed launch of add() is not
// on the timeline, so not found.
TEST_F(ViewerServerTest, SearchFindsEventsByName) {
  JsonValue found = GetJson("/api/search?report=0&q=ADD(INT");
  EXPECT_EQ(found.Find("total")->text, "1");
  ASSERT_EQ(found.Find("matches")->array.size(), 1u);
  const JsonValue& match = found.Find("matches")->array[0];
  EXPECT_EQ(match.Find("name")->text, "add(int, int, int*)");
  EXPECT_EQ(match.Find("type")->text, "kernel");
  EXPECT_EQ(match.Find("track")->text, "gpu0.s7");
  EXPECT_EQ(match.Find("s")->text, std::to_string(kRichStart + 4000));
  EXPECT_EQ(GetJson("/api/search?report=0&q=").Find("total")->text, "0");
  EXPECT_EQ(GetJson("/api/search?report=0&q=nothing%20like%20it").Find("total")->text, "0");
  GetJson("/api/search?report=0", 400);
  GetJson("/api/search?report=9&q=add", 400);
}

TEST_F(ViewerServerTest, BadParametersAre400AndUnknownPaths404) {
  const std::string window = "&start=10&end=20&px=10";
  const std::vector<std::string> targets = {
      "/api/tracks",
      "/api/tracks?report=2",
      "/api/tracks?report=-1",
      "/api/tracks?report=0x1",
      "/api/slices?report=0&track=t77",
      "/api/slices?report=0&track=t77&start=20&end=10&px=10",
      "/api/slices?report=0&track=t77&start=10&end=20&px=0",
      "/api/slices?report=0&track=t77&start=10&end=20&px=99999999",
      "/api/slices?report=0&track=t77&start=1e3&end=20&px=10",
      "/api/event?report=0&type=banana&id=1",
      "/api/event?report=0&type=kernel&id=abc",
      "/api/summary?reports=0,7",
      "/api/kernel?report=0",
      "/api/diff?a=0"};
  for (const std::string& target : targets) {
    JsonValue error = GetJson(target, 400);
    ASSERT_NE(error.Find("error"), nullptr) << target;
    EXPECT_EQ(error.Find("error")->text.find('\n'), std::string::npos);
  }
  GetJson("/api/slices?report=0&track=nope" + window, 404);
  GetJson("/api/nothing", 404);
}

TEST_F(ViewerServerTest, SurvivesMalformedAndHostileRequests) {
  EXPECT_EQ(SendRaw(port(), "garbage\r\n\r\n").status, 400);
  EXPECT_EQ(SendRaw(port(), "GET / HTTP/1.1\r\nbroken header\r\n\r\n").status, 400);
  EXPECT_EQ(SendRaw(port(), "POST /api/reports HTTP/1.1\r\n\r\n").status, 405);
  EXPECT_EQ(SendRaw(port(), "GET / HTTP/1.1\r\nX: " + std::string(40000, 'a') + "\r\n\r\n").status,
            431);
  EXPECT_EQ(SendRaw(port(), "GET / HTTP/1.1\r\nHost: evil.example:80\r\n\r\n").status, 403);
  EXPECT_EQ(SendRaw(port(), "GET /api/reports HTTP/1.1").status, 400);  // closed mid-head
  EXPECT_EQ(SendRaw(port(), "").status, 0);                             // nothing: no answer
  RawResponse head = SendRaw(port(), "HEAD /api/reports HTTP/1.1\r\nHost: localhost\r\n\r\n");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  // Still serving.
  EXPECT_EQ(Get(port(), "/api/reports").status, 200);
}

TEST_F(ViewerServerTest, AOneMegabyteHeadIsRefusedAndTheServerGoesOn) {
  // The answer comes while the client is still sending: the server reads and drops the rest
  // for a moment, so that the 431 is not lost to a reset.
  RawResponse refused =
      SendRaw(port(), "GET / HTTP/1.1\r\nX: " + std::string(1 << 20, 'a') + "\r\n\r\n");
  EXPECT_EQ(refused.status, 431);
  EXPECT_EQ(Get(port(), "/api/reports").status, 200);
}

TEST_F(ViewerServerTest, SendsNoCorsHeadersEvenWhenAPageAsks) {
  for (const std::string target : {"/api/reports", "/", "/api/nothing"}) {
    RawResponse response = SendRaw(port(), "GET " + target +
                                               " HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: "
                                               "https://evil.example\r\n\r\n");
    EXPECT_NE(response.status, 0) << target;
    EXPECT_EQ(response.head.find("Access-Control-"), std::string::npos) << response.head;
  }
}

TEST_F(ViewerServerTest, TheReportListNamesEachReportByItsFileNameAlone) {
  RawResponse response = Get(port(), "/api/reports");
  ASSERT_EQ(response.status, 200);
  // Where the reports lie is none of the page's business (nor of a page that reads it).
  EXPECT_EQ(response.body.find(dir_->path()), std::string::npos) << response.body.substr(0, 400);
  JsonValue reports = ParsedJsonOrFail(response.body);
  ASSERT_EQ(reports.array.size(), 2u);
  EXPECT_EQ(reports.array[0].Find("path")->text, "a.sqlite");
  EXPECT_EQ(reports.array[1].Find("path")->text, "b.sqlite");
}

TEST_F(ViewerServerTest, EveryAnswerRefusesToBeFramed) {
  const std::vector<std::string> requests = {testing::GetRequest(port(), "/"),
                                             testing::GetRequest(port(), "/api/reports"),
                                             testing::GetRequest(port(), "/api/summary?reports=0"),
                                             testing::GetRequest(port(), "/api/nothing"),
                                             testing::GetRequest(port(), "/api/tracks?report=9"),
                                             "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
                                             "POST / HTTP/1.1\r\n\r\n",
                                             "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
                                             "garbage\r\n\r\n"};
  for (const std::string& request : requests) {
    RawResponse response = SendRaw(port(), request);
    EXPECT_NE(response.status, 0) << request;
    EXPECT_NE(response.head.find("\r\nX-Frame-Options: DENY"), std::string::npos) << response.head;
    EXPECT_NE(response.head.find("\r\nContent-Security-Policy: frame-ancestors 'none'"),
              std::string::npos)
        << response.head;
  }
}

TEST_F(ViewerServerTest, ConcurrentClientsAreAllAnswered) {
  std::vector<std::thread> clients;
  std::atomic<int> ok{0};
  for (int i = 0; i < 8; ++i) {
    clients.emplace_back([&] {
      if (Get(port(), "/api/tracks?report=0").status == 200) ++ok;
    });
  }
  for (std::thread& client : clients) client.join();
  EXPECT_EQ(ok.load(), 8);
}

}  // namespace
}  // namespace gpuscope::viewer

namespace gpuscope::viewer {
namespace {

// /api/summary's trace tables hold their earliest rows only, and say how many of how many:
// a million events made a 755 MB answer that took minutes. The other tables count them all.
TEST(ViewerSummaryTest, TraceTablesHoldTheirEarliestRowsAndSaySo) {
  ScratchDir dir;
  const std::uint64_t kernels = ViewerData::kSummaryTraceRows + 700;
  exporter::testing::WriteSyntheticReport(dir.File("big.sqlite"), kernels);
  auto data = ViewerData::Open({dir.File("big.sqlite")});
  ASSERT_TRUE(data.ok()) << data.status().message();
  testing::RunningServer server([&](const HttpRequest& request) {
    return HandleViewerRequest(**data, PlaceholderWebAssets(), request);
  });
  RawResponse response = Get(server.port(), "/api/summary?reports=0");
  ASSERT_EQ(response.status, 200) << response.body;
  std::string error;
  std::optional<JsonValue> summary = ParseJson(response.body, &error);
  ASSERT_TRUE(summary.has_value()) << error;
  const JsonValue* gpu_trace = summary->Find("tables")->Find("cuda_gpu_trace");
  ASSERT_NE(gpu_trace, nullptr);
  EXPECT_EQ(gpu_trace->array.size(), ViewerData::kSummaryTraceRows);
  const JsonValue* cut = summary->Find("embedded_rows")->Find("cuda_gpu_trace");
  ASSERT_NE(cut, nullptr);
  EXPECT_EQ(cut->Find("rows")->text, std::to_string(ViewerData::kSummaryTraceRows));
  EXPECT_EQ(cut->Find("total")->text, std::to_string(kernels));
  const JsonValue* kern_sum = summary->Find("tables")->Find("cuda_gpu_kern_sum");
  ASSERT_NE(kern_sum, nullptr);
  ASSERT_FALSE(kern_sum->array.empty());
  std::uint64_t instances = 0;
  for (const JsonValue& row : kern_sum->array) instances += std::stoull(row.Find("Instances")->text);
  EXPECT_EQ(instances, kernels);
}

}  // namespace
}  // namespace gpuscope::viewer
