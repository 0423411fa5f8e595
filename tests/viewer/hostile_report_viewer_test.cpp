// The viewer's routes on reports mutated with SQL (issue 14, "Readers that never crash"):
// every answer is valid JSON, and none takes long.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>

#include "../export/test_reports.h"
#include "../support/json_checker.h"
#include "viewer/viewer_data.h"
#include "viewer/viewer_routes.h"
#include "viewer/web_assets.h"

namespace gpuscope::viewer {
std::span<const EmbeddedFile> PlaceholderWebAssets();  // generated from tests/viewer/data/web

namespace {

using exporter::testing::ScratchDir;

using exporter::testing::ExecSql;

// The rich report with `sql` run on it, answering `target` ("/api/event?..."); the answer
// must parse as JSON.
std::string Answer(const std::string& sql, const std::string& path,
                   const std::map<std::string, std::string>& query) {
  ScratchDir dir;
  std::string report = dir.File("r.sqlite");
  exporter::testing::WriteRichReport(report);
  ExecSql(report, sql);
  auto data = ViewerData::Open({report});
  EXPECT_TRUE(data.ok()) << data.status().message();
  if (!data.ok()) return "";
  HttpRequest request;
  request.method = "GET";
  request.path = path;
  request.query = query;
  auto start = std::chrono::steady_clock::now();
  HttpResponse response = HandleViewerRequest(*data.value(), PlaceholderWebAssets(), request);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  std::string error;
  EXPECT_TRUE(analysis::testing::ParseJson(response.body, &error).has_value())
      << error << "\n"
      << response.body.substr(0, 400);
  return response.body;
}

TEST(HostileReportViewer, AnInfiniteRealIsNull) {
  std::string body = Answer("UPDATE memcpys SET is_async = 9e999 WHERE id = 1", "/api/event",
                            {{"report", "0"}, {"type", "memcpy"}, {"id", "1"}});
  EXPECT_NE(body.find("\"is_async\":null"), std::string::npos) << body;
}

TEST(HostileReportViewer, SummaryOfIdsNearInt64MaxAnswersQuickly) {
  std::string body =
      Answer("UPDATE api_calls SET id=4611686018427387904 WHERE id=(SELECT max(id) FROM api_calls)",
             "/api/summary", {{"reports", "0"}});
  EXPECT_NE(body.find("cuda_api_sum"), std::string::npos) << body.substr(0, 400);
}

// A damaged row (store/damaged_rows.h) is left out of the timeline and the summary tables,
// and both answers say so: here a kernel with a grid of 0 in a report recorded on the GPU.
TEST(HostileReportViewer, DamagedRowsAreLeftOutAndNamed) {
  ScratchDir dir;
  std::string report = dir.File("r.sqlite");
  std::filesystem::copy_file(
      std::string(GPUSCOPE_TEST_DATA_DIR) + "/reports/h100_nvtx_ranges.sqlite", report);
  ExecSql(report, "UPDATE kernels SET grid_z = 0 WHERE id = (SELECT min(id) FROM kernels)");
  auto data = ViewerData::Open({report});
  ASSERT_TRUE(data.ok()) << data.status().message();
  auto answer = [&](const std::string& path, const std::map<std::string, std::string>& query) {
    HttpRequest request;
    request.method = "GET";
    request.path = path;
    request.query = query;
    std::string body = HandleViewerRequest(*data.value(), PlaceholderWebAssets(), request).body;
    std::string error;
    EXPECT_TRUE(analysis::testing::ParseJson(body, &error).has_value()) << error;
    return body;
  };
  const std::string warning =
      "1 row of kernels has a grid or block dimension of 0 or less (damaged launch "
      "configuration): skipped";
  EXPECT_NE(answer("/api/reports", {}).find("\"" + warning + "\""), std::string::npos);
  std::string summary = answer("/api/summary", {{"reports", "0"}});
  EXPECT_NE(summary.find(warning), std::string::npos) << summary.substr(0, 600);
  // One launch of nvtxWork is left in the kernel table (the recording has two).
  EXPECT_NE(summary.find("\"Instances\": 1, "), std::string::npos) << summary.substr(0, 600);
  std::uint64_t gpu_events = 0;
  for (const Track& track : data.value()->index(0).tracks()) {
    if (track.kind == "gpu") {
      for (const TrackEvent& event : track.events) {
        gpu_events += event.type() == EventType::kKernel ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(gpu_events, 1u);
}

}  // namespace
}  // namespace gpuscope::viewer
